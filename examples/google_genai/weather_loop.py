"""A Gemini weather assistant with hand-written function-calling loops: one mistake of
the google-genai contract per function."""

from google import genai
from google.genai import types

client = genai.Client()
MODEL = "gemini-2.5-flash"
get_weather_declaration = types.FunctionDeclaration(
    name="get_weather",
    description="Get the current weather in a city",
    parameters_json_schema={
        "type": "object",
        "properties": {"city": {"type": "string"}},
        "required": ["city"],
    },
)
config = types.GenerateContentConfig(
    tools=[types.Tool(function_declarations=[get_weather_declaration])]
)


def get_weather(city: str) -> str:
    return f"Sunny in {city}"


def string_response(question: str) -> str:
    """The tool's string result as the response: pydantic rejects it when the part is built."""
    contents: list = [types.Content(role="user", parts=[types.Part.from_text(text=question)])]
    response = client.models.generate_content(model=MODEL, contents=contents, config=config)
    contents.append(response.candidates[0].content)
    parts = []
    for call in response.function_calls or []:
        result = get_weather(**call.args)
        parts.append(
            types.Part.from_function_response(
                name=call.name,
                response=result,  # expect: TRG001
            )
        )
    contents.append(types.Content(role="user", parts=parts))
    return client.models.generate_content(model=MODEL, contents=contents, config=config).text


def mixed_turn(question: str) -> str:
    """The call and its response in one turn, as an early SDK documentation example did."""
    response = client.models.generate_content(model=MODEL, contents=question, config=config)
    call = response.function_calls[0]
    call_part = types.Part(function_call=call)
    answer = types.Part.from_function_response(
        name=call.name, response={"result": get_weather(**call.args)}
    )
    contents = [
        types.Content(role="user", parts=[types.Part.from_text(text=question)]),
        types.Content(role="user", parts=[call_part, answer]),  # expect: TRG004
    ]
    return client.models.generate_content(model=MODEL, contents=contents, config=config).text


def first_call_only(question: str) -> str:
    """The model's whole turn goes back, but only its first call is answered."""
    contents: list = [types.Content(role="user", parts=[types.Part.from_text(text=question)])]
    response = client.models.generate_content(model=MODEL, contents=contents, config=config)
    if not response.function_calls:
        return response.text or ""
    call = response.function_calls[0]
    contents.append(response.candidates[0].content)
    answer = types.Part.from_function_response(
        name=call.name,  # expect: TRG002
        response={"result": get_weather(**call.args)},
    )
    contents.append(types.Content(role="user", parts=[answer]))
    return client.models.generate_content(model=MODEL, contents=contents, config=config).text


def turn_forgotten(question: str) -> str:
    """Every call answered, but the model's turn that made them is never added."""
    contents: list = [types.Content(role="user", parts=[types.Part.from_text(text=question)])]
    response = client.models.generate_content(model=MODEL, contents=contents, config=config)
    parts = [
        types.Part.from_function_response(name=c.name, response={"result": get_weather(**c.args)})
        for c in response.function_calls or []
    ]
    contents.append(types.Content(role="user", parts=parts))  # expect: TRG003
    return client.models.generate_content(model=MODEL, contents=contents, config=config).text


def city_tags(city: str) -> set[str]:
    """Tags of a city, for automatic function calling."""
    return {"sunny", city.lower()}  # expect: TRG101


def automatic(question: str) -> str:
    """Automatic function calling: the SDK runs `city_tags` and cannot encode its set."""
    afc = types.GenerateContentConfig(tools=[city_tags])
    return client.models.generate_content(model=MODEL, contents=question, config=afc).text
