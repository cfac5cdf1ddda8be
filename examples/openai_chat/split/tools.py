# The tool functions of the split assistant, and the registry `loop.py` imports.
# Nothing here is wrong on its own: the mistakes are against the schemas in loop.py
# (a key that names no tool, a parameter the schema calls differently, a `set` that
# loop.py's plain `json.dumps` cannot encode). Only `toolret check` (whole-project
# mode) sees them; flake8 checks one file at a time, so they are marked `(project)`.


def get_current_weather(location: str, unit: str = "celsius") -> str:
    return f"Sunny, 22 degrees {unit} in {location}"


def get_forecast(town: str, days: int = 3) -> str:
    return f"{days} sunny days in {town}"


def list_cities(country: str):
    if country == "FR":
        return {"Paris", "Lyon"}  # expect: TRV402 (project)
    return []


REGISTRY = {
    "get_current_weather": get_current_weather,
    "get_forecast": get_forecast,  # expect: TRV404 (project)
    "cities": list_cities,  # expect: TRV403 (project)
}
