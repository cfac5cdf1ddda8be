# toolret example: ActionResult built the wrong way, in actions and in the helpers that
# build results for them. TRV202 (success without is_done), TRV203 (positional argument),
# TRV204 (unknown field, silently dropped), TRV205 (non-string content), TRV207 (ends the
# task on an error).
from browser_use import Controller
from browser_use.agent.views import ActionResult as Result

controller = Controller()


def ok(message: str) -> Result:
    return Result(extracted_content=message, success=True)  # expect: TRV202


def failed(message: str) -> Result:
    return Result(message)  # expect: TRV203


@controller.registry.action("Add the product to the cart")
async def add_to_cart(browser_session, sku: str):
    page = await browser_session.must_get_current_page()
    buttons = await page.get_elements_by_css_selector(f"[data-sku='{sku}'] .add-to-cart")
    if not buttons:
        return failed(f"No add-to-cart button for {sku}")
    await buttons[0].click()
    return ok(f"Added {sku} to the cart")


@controller.registry.action("Read the cart total")
async def cart_total(browser_session):
    page = await browser_session.must_get_current_page()
    total = await page.evaluate("() => document.querySelector('.cart-total').innerText")
    return Result(data=total, include_in_memory=True)  # expect: TRV204


@controller.registry.action("Count the items in the cart")
async def cart_size(browser_session):
    page = await browser_session.must_get_current_page()
    items = await page.get_elements_by_css_selector(".cart-item")
    count = len(items)
    return Result(extracted_content=count, long_term_memory=f"{count} items in the cart")  # expect: TRV205


@controller.registry.action("Apply a discount code")
async def apply_coupon(browser_session, code: str):
    response = await coupons.apply(code)
    if not response.ok:
        return Result(
            is_done=True,  # expect: TRV207
            error=f"Coupon {code} was rejected",
        )
    return Result(extracted_content=f"Coupon {code} applied")


# ---- correct results: nothing to report below -----------------------------------------


def ok_result(message: str) -> Result:
    return Result(extracted_content=message)


def finished(summary: str) -> Result:
    return Result(is_done=True, success=True, extracted_content=summary)


@controller.registry.action("Assert the checkout page is reached")
async def assert_checkout(browser_session):
    url = await browser_session.get_current_page_url()
    if "/checkout" not in url:
        msg = f"Expected the checkout page, got {url}"
        # Failing fast on purpose, as browser-use's own assertions example does.
        return Result(is_done=True, success=False, error=msg, long_term_memory=msg)
    return Result(extracted_content="On the checkout page", metadata={"url": url})


@controller.registry.action("Count the items in the cart")
async def cart_size_text(browser_session):
    page = await browser_session.must_get_current_page()
    items = await page.get_elements_by_css_selector(".cart-item")
    count = len(items)
    return Result(extracted_content=str(count), long_term_memory=f"{count} items in the cart")


def from_payload(payload: dict) -> Result:
    return Result(**payload)  # unpacked keywords: not judged
