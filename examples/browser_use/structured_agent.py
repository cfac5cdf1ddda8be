# toolret example: an agent with a structured output model. A custom action that finishes
# the task must put JSON of that model in extracted_content, or reading
# history.structured_output raises. TRV206.
import json

from pydantic import BaseModel

from browser_use import ActionResult, Agent, ChatOpenAI, Tools


class PriceReport(BaseModel):
    product: str
    lowest_price: float
    shop: str


tools = Tools()
registry = tools.registry


@registry.action("Finish when the product is out of stock everywhere")
async def out_of_stock(product: str):
    return ActionResult(is_done=True, success=False, extracted_content=f"No shop has {product} in stock")  # expect: TRV206


@registry.action("Finish with the best price found")
async def report_price(product: str, price: float, shop: str):
    report = PriceReport(product=product, lowest_price=price, shop=shop)
    return ActionResult(is_done=True, success=True, extracted_content=report.model_dump_json())


@registry.action("Finish with a price read from the comparison table")
async def report_from_table(product: str, price: float, shop: str):
    data = {"product": product, "lowest_price": price, "shop": shop}
    return ActionResult(is_done=True, success=True, extracted_content=json.dumps(data))


@registry.action("Finish with the price shown on the product page")
async def report_page_price(product: str, price: float):
    return ActionResult(is_done=True, success=True, extracted_content=f"{product}: {price:.2f} EUR")  # expect: TRV206


async def main() -> PriceReport | None:
    agent = Agent(
        task="Find the lowest price of the Sony WH-1000XM5 on three shops",
        llm=ChatOpenAI(model="gpt-4.1-mini"),
        tools=tools,
        output_model_schema=PriceReport,
    )
    history = await agent.run()
    return history.structured_output
