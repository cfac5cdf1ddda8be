# toolret example: custom actions of a price-tracking agent, some of which return values
# browser-use rejects. TRV201 (a number or a dict returned), TRV209 (**kwargs) and the
# info rule TRV208 (an action that tells the model nothing).
import json

from browser_use import ActionResult, Tools

tools = Tools()


@tools.action("Count the products listed on the current search results page")
async def count_results(browser_session):
    page = await browser_session.must_get_current_page()
    cards = await page.get_elements_by_css_selector("[data-component-type='s-search-result']")
    return len(cards)  # expect: TRV201


@tools.action("Look up our own stock level for a product SKU")
def check_stock(sku: str):
    level = inventory_api.stock(sku)
    if level is None:
        return ActionResult(error=f"Unknown SKU {sku}")
    return {"sku": sku, "in_stock": level.available}  # expect: TRV201


@tools.action("Convert a price between currencies")
def convert_price(amount: float, currency: str):
    rate = rates_api.rate("USD", currency)
    converted = round(amount * rate, 2)
    # `round(x, 2)` is not certainly an int (a float for float x): not reported.
    return converted


@tools.action("Search our product catalogue")
async def search_catalogue(query: str, **filters):  # expect: TRV209
    hits = await catalogue.search(query, **filters)
    return json.dumps([hit.title for hit in hits])


@tools.action("Save the tracked price to the price history")
def save_price(sku: str, price: float):  # expect: TRV208
    with open("prices.csv", "a") as history:
        history.write(f"{sku},{price}\n")


@tools.action("Close the newsletter pop-up if there is one")
async def close_popup(browser_session):
    page = await browser_session.must_get_current_page()
    buttons = await page.get_elements_by_css_selector(".newsletter-modal .close")
    if not buttons:
        return  # expect: TRV208
    await buttons[0].click()
    return "Closed the newsletter pop-up"


# ---- correct actions: nothing to report below ----------------------------------------


@tools.action("Count the products listed on the current search results page")
async def count_results_text(browser_session):
    page = await browser_session.must_get_current_page()
    cards = await page.get_elements_by_css_selector("[data-component-type='s-search-result']")
    return f"{len(cards)} products on this page"


@tools.action("Look up our own stock level for a product SKU")
def check_stock_json(sku: str):
    level = inventory_api.stock(sku)
    if level is None:
        return ActionResult(error=f"Unknown SKU {sku}")
    return json.dumps({"sku": sku, "in_stock": level.available})


@tools.action("Fetch the competitor's price feed")
def competitor_feed(sku: str):
    response = http.get(f"https://feeds.example.com/{sku}")
    # Unknown type (in fact a dict at run time): toolret cannot know, so it stays silent.
    return response.json()


@tools.action("Compare two prices")
def compare_prices(ours: float, theirs: float):
    def percent(a: float, b: float) -> float:
        return (a - b) / b * 100  # a nested helper's return, not the action's

    return f"We are {percent(ours, theirs):.1f}% more expensive"


def price_as_number(text: str) -> float:
    # Not an action: helpers may return anything.
    return float(text.replace("$", ""))
