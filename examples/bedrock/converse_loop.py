"""A weather assistant on Bedrock's Converse API, with one tool-result mistake per rule.

Each mistake fails only at the request after the tool ran: botocore raises
`ParamValidationError` (TRB001, TRB002, TRB004), or the service answers HTTP 400
(TRB003, TRB005–TRB008).
"""

from decimal import Decimal

import boto3

client = boto3.client("bedrock-runtime", region_name="us-east-1")
MODEL = "anthropic.claude-3-5-sonnet-20240620-v1:0"
TOOLS = {
    "tools": [
        {
            "toolSpec": {
                "name": "get_weather",
                "description": "The weather in a city.",
                "inputSchema": {
                    "json": {
                        "type": "object",
                        "properties": {"city": {"type": "string"}},
                        "required": ["city"],
                    }
                },
            }
        }
    ]
}


def get_weather(city: str) -> dict:
    return {"city": city, "temperature": 20, "unit": "C"}


def text_result(tool_use: dict) -> dict:
    forecast = f"sunny in {tool_use['input']['city']}"
    return {"toolResult": {"toolUseId": tool_use["toolUseId"], "content": forecast}}  # expect: TRB001


def number_result(tool_use: dict) -> dict:
    degrees = int(get_weather(**tool_use["input"])["temperature"])
    return {
        "toolResult": {
            "toolUseId": tool_use["toolUseId"],
            "content": [{"text": degrees}],  # expect: TRB002
        }
    }


def price_result(tool_use: dict) -> dict:
    price = Decimal("4.20")  # what a DynamoDB read returns for a number
    return {
        "toolResult": {
            "toolUseId": tool_use["toolUseId"],
            "content": [{"json": {"item": "umbrella", "price": price}}],  # expect: TRB002
        }
    }


def cities_result(tool_use: dict) -> dict:
    cities = ["Paris", "Rome"]
    return {
        "toolResult": {
            "toolUseId": tool_use["toolUseId"],
            "content": [{"json": cities}],  # expect: TRB003
        }
    }


def anthropic_style_result(tool_use: dict, output: str) -> dict:
    return {
        "toolResult": {
            "tool_use_id": tool_use["toolUseId"],  # expect: TRB004
            "content": [{"text": output}],
        }
    }


def failed_result(tool_use: dict) -> dict:
    return {"toolResult": {"toolUseId": tool_use["toolUseId"], "content": [], "status": "error"}}  # expect: TRB007


def refused_result(tool_use: dict) -> dict:
    return {
        "toolResult": {
            "toolUseId": tool_use["toolUseId"],
            "content": [{"text": "no such city"}],
            "status": "failed",  # expect: TRB008
        }
    }


def run_without_the_assistant_turn(question: str):
    messages = [{"role": "user", "content": [{"text": question}]}]
    response = client.converse(modelId=MODEL, messages=messages, toolConfig=TOOLS)
    results = []
    for block in response["output"]["message"]["content"]:
        if "toolUse" in block:
            tool_use = block["toolUse"]
            weather = get_weather(**tool_use["input"])
            results.append(
                {"toolResult": {"toolUseId": tool_use["toolUseId"], "content": [{"json": weather}]}}
            )
    messages.append({"role": "user", "content": results})  # expect: TRB005
    return client.converse(modelId=MODEL, messages=messages, toolConfig=TOOLS)


def run_answering_one_tool_use(question: str):
    messages = [{"role": "user", "content": [{"text": question}]}]
    response = client.converse(modelId=MODEL, messages=messages, toolConfig=TOOLS)
    message = response["output"]["message"]
    messages.append(message)
    tool_use = next(b["toolUse"] for b in message["content"] if "toolUse" in b)
    weather = get_weather(**tool_use["input"])
    result = {"toolUseId": tool_use["toolUseId"], "content": [{"json": weather}]}  # expect: TRB006
    messages.append({"role": "user", "content": [{"toolResult": result}]})
    return client.converse(modelId=MODEL, messages=messages, toolConfig=TOOLS)


def run_with_a_tool_role(messages: list, tool_use: dict, output: str):
    result = {"toolResult": {"toolUseId": tool_use["toolUseId"], "content": [{"text": output}]}}
    messages.append({"role": "tool", "content": [result]})  # expect: TRB008
    return client.converse(modelId=MODEL, messages=messages, toolConfig=TOOLS)
