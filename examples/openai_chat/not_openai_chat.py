"""A tool loop on a client toolret does not know (`cerebras`): not checked.

Add a client to `[tool.toolret.openai-chat] extra-clients` only when it speaks
OpenAI's message format; the OpenAI-compatible clients toolret knows (groq,
together, litellm, Mistral, Ollama) are checked by default, each with its contract.
"""

from cerebras.cloud.sdk import Cerebras

client = Cerebras()


def run(messages: list) -> None:
    response = client.chat.completions.create(model="llama3.1-8b", messages=messages, tools=[])
    message = response.choices[0].message
    for tool_call in message.tool_calls or []:
        messages.append(message)
        messages.append({"role": "tool", "content": {"temperature": 21}})
