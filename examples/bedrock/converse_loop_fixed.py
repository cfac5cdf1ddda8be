"""The weather assistant on Bedrock's Converse API, written as AWS's samples write it.

The assistant message goes back first, every `toolUse` block is answered in one user
message, results are lists of `{"json": object}` / `{"text": str}` blocks, and a failed
tool says what failed with `"status": "error"`.
"""

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
    if not city:
        raise ValueError("no city")
    return {"city": city, "temperature": 20, "unit": "C"}


def answer(tool_use: dict) -> dict:
    try:
        weather = get_weather(**tool_use["input"])
    except ValueError as error:
        return {
            "toolResult": {
                "toolUseId": tool_use["toolUseId"],
                "content": [{"text": f"get_weather failed: {error}"}],
                "status": "error",
            }
        }
    return {
        "toolResult": {
            "toolUseId": tool_use["toolUseId"],
            "content": [{"json": weather}, {"text": str(weather["temperature"])}],
        }
    }


def run(question: str) -> str:
    messages = [{"role": "user", "content": [{"text": question}]}]
    while True:
        response = client.converse(modelId=MODEL, messages=messages, toolConfig=TOOLS)
        output_message = response["output"]["message"]
        messages.append(output_message)
        if response["stopReason"] != "tool_use":
            return "".join(b.get("text", "") for b in output_message["content"])
        results = [answer(b["toolUse"]) for b in output_message["content"] if "toolUse" in b]
        messages.append({"role": "user", "content": results})
