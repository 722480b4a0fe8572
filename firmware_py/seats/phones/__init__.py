"""Phones as pads: the web server, its page, and one WebSocket per phone."""
