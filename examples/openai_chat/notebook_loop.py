# A tutorial notebook exported to .py: the tool loop runs in the module body, not in a
# function, and a helper answers the calls it is handed. toolret finds loops by what
# they do: a `for` over a `tool_calls` parameter whose tool messages answer `call.id` is
# an answer loop, and the assistant message written into `messages=[...]` is sent.

# %%
import json

from openai import OpenAI

client = OpenAI()

tools = [
    {
        "type": "function",
        "function": {
            "name": "get_current_weather",
            "parameters": {
                "type": "object",
                "properties": {"location": {"type": "string"}},
                "required": ["location"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "get_forecast",  # expect: TRV403
            "parameters": {
                "type": "object",
                "properties": {"location": {"type": "string"}},
                "required": ["location"],
            },
        },
    },
]


def get_current_weather(location: str) -> str:
    return json.dumps({"location": location, "temperature": 22})


def get_forecast(location: str) -> str:
    return json.dumps({"location": location, "tomorrow": "rain"})


# get_forecast was added to the schemas, not to the registry: the guard answers
# "unknown tool" every time the model asks for a forecast.
available_functions = {"get_current_weather": get_current_weather}


def execute_tool_calls(tool_calls, messages):
    for tool_call in tool_calls:
        try:
            function = available_functions[tool_call.function.name]
            result = function(**json.loads(tool_call.function.arguments))
        except KeyError:
            result = f"Unknown tool: {tool_call.function.name}"
        messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": result})
        return messages  # expect: TRV409


# %% [markdown]
# ## One question, one tool call

# %%
messages = [{"role": "user", "content": "What's the weather like in Paris and in Rome?"}]
response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
response_message = response.choices[0].message

tool_call = response_message.tool_calls[0]  # expect: TRV405
weather = get_current_weather(**json.loads(tool_call.function.arguments))
second_response = client.chat.completions.create(
    model="gpt-4o",
    messages=[
        *messages,
        response_message,
        {"role": "tool", "tool_call_id": tool_call.id, "content": weather},
    ],
)
print(second_response.choices[0].message.content)

# %% [markdown]
# ## A chat function with a helper for the tool call


# %%
def handle_tool_call(message):
    tool_call = message.tool_calls[0]
    result = get_current_weather(**json.loads(tool_call.function.arguments))
    return {"role": "tool", "tool_call_id": tool_call.id, "content": result}


def chat(messages):
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    message = response.choices[0].message
    if not message.tool_calls:
        return message.content
    messages.append(message)
    messages.append(handle_tool_call(message))  # expect: TRV405
    return chat(messages)


# %% [markdown]
# ## Every call answered (the helper's loop is the mistake above)


# %%
def ask(question: str) -> str | None:
    messages = [{"role": "user", "content": question}]
    response = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    message = response.choices[0].message
    messages.append(message)
    execute_tool_calls(message.tool_calls or [], messages)
    final = client.chat.completions.create(model="gpt-4o", messages=messages, tools=tools)
    return final.choices[0].message.content


print(ask("And in Berlin?"))
