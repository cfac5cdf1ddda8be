# Tool-use behaviour functions of the weather assistant (`main.py` builds the agents).
# They decide, after the tools of a turn ran, whether the run ends and with what.
# `summary_behavior` and `temperature_behavior` are wrong only for the agents in main.py
# that use them (output_type=WeatherReport; no output_type): only `toolret check`
# (whole-project mode) sees that. flake8 checks one file at a time, so those
# expectations are marked `(project)`.
from typing import Any

from agents import FunctionToolResult, RunContextWrapper, ToolsToFinalOutputResult

from models import WeatherReport


def stop_on_forecast(
    context: RunContextWrapper[Any], results: list[FunctionToolResult]
) -> ToolsToFinalOutputResult:
    for result in results:
        if result.tool.name == "get_forecast":
            return {"is_final_output": True, "final_output": result.output}  # expect: TRV303
    return ToolsToFinalOutputResult(is_final_output=False)


def summary_behavior(
    context: RunContextWrapper[Any], results: list[FunctionToolResult]
) -> ToolsToFinalOutputResult:
    cities = ", ".join(str(r.output) for r in results)
    return ToolsToFinalOutputResult(is_final_output=True, final_output=f"Weather: {cities}")  # expect: TRV305 (project)


def temperature_behavior(context, results) -> ToolsToFinalOutputResult:
    readings = [r.output for r in results]
    return ToolsToFinalOutputResult(is_final_output=True, final_output=len(readings) * 10)  # expect: TRV312 (project)


def alert_behavior(context, results) -> ToolsToFinalOutputResult:
    if not results:
        return ToolsToFinalOutputResult(is_final_output=True)  # expect: TRV304
    return ToolsToFinalOutputResult(is_final_output="False", final_output=None)  # expect: TRV306


def keep_asking(context, results) -> ToolsToFinalOutputResult:
    return ToolsToFinalOutputResult(is_final_output=False, final_output="ask again")  # expect: TRV307


# Correct behaviour functions: nothing to report below.
def report_behavior(
    context: RunContextWrapper[Any], results: list[FunctionToolResult]
) -> ToolsToFinalOutputResult:
    report = WeatherReport(city="Tokyo", summary=str(results[0].output))
    return ToolsToFinalOutputResult(is_final_output=True, final_output=report)


def passthrough_behavior(context, results) -> ToolsToFinalOutputResult:
    if not results:
        return ToolsToFinalOutputResult(is_final_output=False, final_output=None)
    return ToolsToFinalOutputResult(is_final_output=True, final_output=results[0].output)
