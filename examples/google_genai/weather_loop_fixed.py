"""The same assistant written right: a manual loop that answers every call after the
model's own turn, and an automatic-function-calling agent whose tool returns JSON-ready
values."""

from google import genai
from google.genai import types

client = genai.Client()
MODEL = "gemini-2.5-flash"


def get_weather(city: str) -> str:
    """Get the current weather in a city."""
    return f"Sunny in {city}"


def get_forecast(city: str, days: int) -> dict:
    """Get the forecast for the next days."""
    return {"city": city, "days": [{"day": n, "sky": "sunny"} for n in range(days)]}


FUNCTIONS = {"get_weather": get_weather, "get_forecast": get_forecast}
manual = types.GenerateContentConfig(
    tools=[get_weather, get_forecast],
    automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
)


def manual_loop(question: str) -> str:
    contents: list = [types.Content(role="user", parts=[types.Part.from_text(text=question)])]
    for _ in range(5):
        response = client.models.generate_content(model=MODEL, contents=contents, config=manual)
        if not response.function_calls:
            return response.text or ""
        contents.append(response.candidates[0].content)
        parts = [
            types.Part.from_function_response(
                name=call.name, response={"result": FUNCTIONS[call.name](**call.args)}
            )
            for call in response.function_calls
        ]
        contents.append(types.Content(role="user", parts=parts))
    return "I could not finish that request."


def automatic(question: str) -> str:
    """Automatic function calling: the SDK calls the tools and wraps each return value."""
    config = types.GenerateContentConfig(tools=[get_weather, get_forecast])
    return client.models.generate_content(model=MODEL, contents=question, config=config).text or ""


def chat(question: str) -> str:
    session = client.chats.create(model=MODEL, config=types.GenerateContentConfig(tools=[get_weather]))
    return session.send_message(question).text or ""
