"""The bare Flask route the load benchmark compares the turn page with, served the same way."""

from flask import Flask

app = Flask(__name__)


@app.get("/")
def hello():
    return "hello"
