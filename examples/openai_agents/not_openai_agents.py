# Look-alikes that are not the OpenAI Agents SDK: nothing here is reported.
try:
    from agents import Agent
except ImportError:  # the SDK is optional: a stand-in with another signature

    class Agent:
        def __init__(self, **options):
            self.options = options


from crewai import Agent as CrewAgent

# A name bound both by the import and by the local class is not trusted.
fallback = Agent(name="Fallback", tool_use_behaviour="stop", output_types=str)

# crewai's Agent takes other keywords.
researcher = CrewAgent(role="Researcher", goal="Find facts", backstory="...", tool_use_behavior="x")


def behaviour(context, results):
    return {"is_final_output": True}


local = Agent(name="Local", tool_use_behavior=behaviour)
