"""``hiddendeck serve``: a browser table where people take seats beside policies (issue 44).

``table`` runs the game and computes every seat's view on the server; ``app`` serves one page
and one token-checked websocket per seat, and a replay viewer; ``static/`` holds the plain
HTML and JavaScript pages (no build step). Needs the ``web`` extra, imported only here.
"""
