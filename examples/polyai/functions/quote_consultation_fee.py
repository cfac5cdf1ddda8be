# toolret example: TRV101 with a float (arithmetic on module constants). The other
# returns are fine: an f-string, and a dict that starts empty but is filled in before
# it is returned (not an empty-dict return).
from _gen import *  # <AUTO GENERATED>

CONSULTATION_FEE = 48.0
NEW_CLIENT_SURCHARGE = 12.5
EXOTICS_FEE = 65.0
EXOTIC_SPECIES = {"snake", "lizard", "tortoise", "parrot", "ferret"}


@func_description("Tell the caller how much a standard consultation costs")
@func_parameter("species", "The kind of animal, e.g. dog, cat, rabbit")
def quote_consultation_fee(conv: Conversation, species: str):
    conv.write_metric("FEE_QUOTED", species)
    if species.strip().lower() in EXOTIC_SPECIES:
        return f"Consultations for a {species} are with our exotics vet and cost {EXOTICS_FEE:.2f} pounds."
    if conv.state.is_new_client:
        return CONSULTATION_FEE + NEW_CLIENT_SURCHARGE  # expect: TRV101
    reply = {}
    reply["utterance"] = f"A standard consultation costs {CONSULTATION_FEE:.2f} pounds."
    if conv.current_flow == "book_appointment":
        reply["content"] = "Then carry on with the booking where you left off."
    return reply
