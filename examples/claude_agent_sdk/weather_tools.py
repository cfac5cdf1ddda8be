"""Claude Agent SDK in-process tools for a weather assistant, one mistake per rule.

`create_sdk_mcp_server` awaits each handler and reads `result.get("content", [])` and
`result.get("is_error", False)`: every mistake below reaches Claude as an error result,
an empty result, or an error disguised as a success.
"""

import json
from typing import NoReturn

from claude_agent_sdk import ClaudeAgentOptions, create_sdk_mcp_server, tool


def fail(message: str) -> NoReturn:
    raise RuntimeError(message)


@tool("forecast", "The forecast for a city", {"city": str})
async def forecast(args):
    return f"Sunny in {args['city']}"  # expect: TRC001


@tool("station", "The weather station of a city", {"city": str})
async def station(args):
    try:
        name = lookup_station(args["city"])
    except KeyError:
        return {"content": [{"type": "text", "text": "no station"}], "isError": True}  # expect: TRC002
    return {"content": [{"type": "text", "text": name}]}


@tool("temperature", "The temperature in a city", {"city": str})
async def temperature(args):
    return {"city": args["city"], "celsius": 20}  # expect: TRC003


@tool("humidity", "The humidity in a city", {"city": str})
async def humidity(args):
    return {"content": [{"type": "json", "json": {"humidity": 0.4}}]}  # expect: TRC004


@tool("wind", "The wind in a city", {"city": str})
def wind(args):  # expect: TRC005
    return {"content": [{"type": "text", "text": "calm"}]}


@tool  # expect: TRC006
async def alerts(args):
    return {"content": [{"type": "text", "text": "no alerts"}]}


@tool("pressure", "The air pressure in a city", {"city": str})
async def pressure(args):
    if args["city"]:
        return {"content": [{"type": "text", "text": json.dumps({"hpa": 1013})}]}
    fail("no city")  # an imported or local helper that always raises ends the handler


def lookup_station(city: str) -> str:
    return {"Paris": "Orly"}[city]


server = create_sdk_mcp_server(
    "weather", tools=[forecast, station, temperature, humidity, wind, pressure]
)
options = ClaudeAgentOptions(mcp_servers={"weather": server})
