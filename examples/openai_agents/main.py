# The weather assistant: agents that use the behaviour functions of behaviors.py.
# `toolret check` pairs each behaviour function with the agents here; the mistakes
# are reported in behaviors.py, where they are.
import asyncio

from agents import Agent, Runner, function_tool

from behaviors import (
    alert_behavior,
    keep_asking,
    passthrough_behavior,
    report_behavior,
    stop_on_forecast,
    summary_behavior,
    temperature_behavior,
)
from models import WeatherReport


@function_tool
def get_forecast(city: str) -> str:
    """Tomorrow's forecast for a city."""
    return f"{city}: sunny, 14-20C"


forecaster = Agent(name="Forecaster", tools=[get_forecast], tool_use_behavior=stop_on_forecast)
reporter = Agent(
    name="Reporter",
    tools=[get_forecast],
    output_type=WeatherReport,
    tool_use_behavior=summary_behavior,
)
thermometer = Agent(name="Thermometer", tools=[get_forecast], tool_use_behavior=temperature_behavior)
alerts = Agent(name="Alerts", tools=[get_forecast], tool_use_behavior=alert_behavior)
asker = Agent(name="Asker", tools=[get_forecast], tool_use_behavior=keep_asking)
structured = Agent(
    name="Structured reporter",
    tools=[get_forecast],
    output_type=WeatherReport,
    tool_use_behavior=report_behavior,
)
passthrough = Agent(name="Passthrough", tools=[get_forecast], tool_use_behavior=passthrough_behavior)


async def main() -> None:
    result = await Runner.run(reporter, "What's the weather in Tokyo?")
    print(result.final_output.summary)


if __name__ == "__main__":
    asyncio.run(main())
