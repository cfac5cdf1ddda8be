# toolret example: `return {}` right after flow.goto_step(...) (the pattern of PolyAI's
# own transition functions) is fine. is_exotic() is a helper returning bool.
# Expected: nothing.
from _gen import *  # <AUTO GENERATED>

EXOTIC_SPECIES = {"snake", "lizard", "tortoise", "parrot", "ferret"}


def is_exotic(species: str) -> bool:
    return species.strip().lower() in EXOTIC_SPECIES


@func_description("Called once the caller has given their pet's name and species")
@func_parameter("pet_name", "The pet's name")
@func_parameter("species", "The kind of animal, e.g. dog, cat, rabbit")
def pet_details_provided(conv: Conversation, flow: Flow, pet_name: str, species: str):
    conv.state.pet_name = pet_name.strip().title()
    conv.state.species = species.strip().lower()
    if is_exotic(species):
        conv.write_metric("EXOTIC_SPECIES", conv.state.species)
        return conv.functions.transfer_to_reception()
    flow.goto_step("check_availability", "pet details collected")
    return {}
