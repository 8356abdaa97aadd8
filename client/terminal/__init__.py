"""The terminal client behind ``boardroom play`` and ``boardroom watch``.

A line-oriented REPL over one :class:`~boardroom.client.session.Session`. One job per module:

- :mod:`~boardroom.client.terminal.app`: start to end: the name, the connection (or a local
  server), the first screen, a clean exit;
- :mod:`~boardroom.client.terminal.lobby`: the lobby's commands;
- :mod:`~boardroom.client.terminal.room_screen`: being in a room: moves, commands, events;
- :mod:`~boardroom.client.terminal.terminal`: the two inputs (lines typed, session events),
  taken one at a time, and requests with refusals shown in words;
- :mod:`~boardroom.client.terminal.console`: reading and writing lines, with prompt_toolkit at
  a terminal and plainly from a pipe;
- :mod:`~boardroom.client.terminal.commands`: reading what is typed (pure);
- :mod:`~boardroom.client.terminal.render`, :mod:`~boardroom.client.terminal.room_text`,
  :mod:`~boardroom.client.terminal.style`: the board, the room in words, colour (pure);
- :mod:`~boardroom.client.terminal.profile`: the remembered name and seat;
- :mod:`~boardroom.client.terminal.seat_keeper`: the seat saved as soon as it is taken, and
  forgotten once there is none, so that a killed client gets back in.

Every string from the server arrives printable (:mod:`boardroom.client.printable`): the
modules here may print it as it is.
"""
