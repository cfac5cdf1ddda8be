"""A tool loop on a client that is not configured (`ollama`): not checked.

Add a client to `[tool.toolret.openai-chat] extra-clients` only when it speaks
OpenAI's message format; ollama's own client accepts other shapes.
"""

import ollama


def run(messages: list) -> None:
    response = ollama.chat(model="llama3.1", messages=messages, tools=[])
    message = response["message"]
    for tool_call in message.tool_calls or []:
        messages.append(message)
        messages.append({"role": "tool", "content": {"temperature": 21}})
