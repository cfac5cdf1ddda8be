"""An Ollama tool loop (`ollama.chat`): Ollama's own contract, not OpenAI's.

Ollama's tool calls have no `id` and its tool messages are keyed by `tool_name`, so
OpenAI's id rules (TRV405–TRV410) do not apply here: the assistant message appended
once per call is not an error for Ollama. A dict `content` is (the client's
`ValidationError`), and so are OpenAI's keys, ported as they were (TRV411).
"""

import ollama


def get_weather(city: str) -> str:
    return f"Sunny in {city}"


def run(messages: list) -> None:
    response = ollama.chat(model="llama3.1", messages=messages, tools=[get_weather])
    message = response.message
    for tool_call in message.tool_calls or []:
        messages.append(message)
        messages.append({"role": "tool", "content": {"temperature": 21}})  # expect: TRV401


def run_ported(messages: list) -> None:
    response = ollama.chat(model="llama3.1", messages=messages, tools=[get_weather])
    messages.append(response.message)
    for call in response.message.tool_calls or []:
        result = get_weather(**call.function.arguments)
        messages.append(
            {
                "role": "tool",
                "tool_call_id": call.id,  # expect: TRV411
                "content": result,
            }
        )
    ollama.chat(model="llama3.1", messages=messages, tools=[get_weather])
