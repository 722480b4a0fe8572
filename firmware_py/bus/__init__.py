"""The tower on the house's MQTT bus: a door and an output of the table, like pads and phones.

Off without a [mqtt] section, and then not even imported (`firmware_py.app.bus` decides). With
it, `client.BusClient` is a presenter of the table (each view becomes the retained state and
the moment's events, `presenter`), publishes the results of finished games from the journal at
least once (`results`), announces the tower to Home Assistant (`discovery`), and listens to a
few topics, checked like a phone's messages (`inbox`). The connection (`link`, aiomqtt in the
tower's own loop) comes and goes by itself: nothing at the table ever waits for it.

Every topic and payload is in docs/home-assistant.md. Modules, by role: `settings` (what
[mqtt] says), `topics`, `payloads` (the JSON of state and events), `discovery`, `results`,
`outbox` (what waits to be sent, bounded), `inbox`, `presenter`, `link`, `client`, `farewell`
(the device removed once [mqtt] is), `check` (doctor's sentence). Only `link`, `check` and
`client` import the MQTT library.
"""
