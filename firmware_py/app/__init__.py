"""The tower put together: commands, arguments, configuration, hardware, doctor, demo, pad install.

Everything here assembles the other stages; nothing in another stage imports it.
"""
