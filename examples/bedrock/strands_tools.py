"""Strands Agents tools: two that return what Strands cannot send, and their fixes."""

from decimal import Decimal

from strands import Agent, tool


@tool
def book_table(restaurant: str, time: str) -> dict:
    """Book a table."""
    return {"status": "success", "content": f"Booked {restaurant} at {time}"}  # expect: TRB101


@tool
def menu_price(dish: str) -> dict:
    """The price of a dish."""
    return {"dish": dish, "price": Decimal("12.50")}  # expect: TRB102


@tool
def book_table_fixed(restaurant: str, time: str) -> dict:
    """Book a table."""
    return {"status": "success", "content": [{"text": f"Booked {restaurant} at {time}"}]}


@tool
def menu_price_fixed(dish: str) -> dict:
    """The price of a dish."""
    return {"dish": dish, "price": "12.50"}


agent = Agent(tools=[book_table, menu_price, book_table_fixed, menu_price_fixed])
