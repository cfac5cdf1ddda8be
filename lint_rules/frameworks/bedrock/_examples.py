"""The lines every Bedrock Converse example starts with."""

HEAD = """\
import boto3

client = boto3.client("bedrock-runtime", region_name="us-east-1")
MODEL = "anthropic.claude-3-5-sonnet-20240620-v1:0"


"""

STRANDS_HEAD = """\
from strands import Agent, tool


"""
