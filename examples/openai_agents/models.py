# The weather assistant's structured output (used as `output_type` in main.py).
from pydantic import BaseModel


class WeatherReport(BaseModel):
    city: str
    summary: str
