"""`nardy serve`'s JSON API through its HTTP client (FastAPI's TestClient): positions in and out,
plays with their steps, evaluation, ranking, rollout jobs with their event stream and cancel, games
against the bot with the tutor, reviews, the book, the library, and the guard's refusals."""

from __future__ import annotations

import json
import signal
import time

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from nardy_cli.core.engine import legal_plays  # noqa: E402
from nardy_cli.core.position import parse_position  # noqa: E402
from nardy_cli.core.position_id import format_position_id  # noqa: E402
from nardy_cli.serve.app import create_app  # noqa: E402
from nardy_cli.serve.config import ServeConfig  # noqa: E402

OPENING = "W:1x13,8,12 B:1x13,6,11 w"


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    return tmp_path_factory.mktemp("serve-api") / "library.sqlite"


@pytest.fixture(scope="module")
def client(library):
    app = create_app(ServeConfig(allowed_hosts=("testserver",), library=library,
                                 max_rollout_games=50_000, max_jobs=1))
    with TestClient(app) as c:
        yield c


def post(client, path, body, status=200):
    r = client.post(f"/api/v1{path}", json=body)
    assert r.status_code == status, r.text
    return r.json()


def test_a_position_by_notation_id_or_board_answers_its_notation_and_id(client):
    """Catches an answer without its ID or notation, and an ID or board read differently from the
    notation."""
    by_text = post(client, "/position", {"position": OPENING})
    pid = format_position_id(parse_position(OPENING))
    assert (by_text["position"], by_text["id"]) == (OPENING, pid)
    by_id = post(client, "/position", {"position": pid})
    by_board = post(client, "/position", {"board": by_text["board"]})
    assert by_id["position"] == by_board["position"] == OPENING
    assert post(client, "/position", {"position": "start", "dice": "6-5"})["position"] == \
        "W:1x15 B:1x15 w 6-5"


def test_each_play_s_steps_lead_to_its_result(client):
    """Catches steps in the wrong numbering or order (a page building a play from clicks would
    end elsewhere than the play's result)."""
    data = post(client, "/plays", {"position": OPENING, "dice": "4-2"})
    expected = legal_plays(parse_position(OPENING), "4-2")
    assert [p["play"] for p in data["plays"]] == [str(p) for p in expected]
    for play in data["plays"]:
        mine = list(data["board"]["white"])
        for a, b in play["steps"]:
            assert mine[a - 1] > 0, play
            mine[a - 1] -= 1
            if b != 25:
                mine[b - 1] += 1
        assert parse_position(play["result"]).white == tuple(mine)
        assert play["result_id"] == format_position_id(parse_position(play["result"]))


def test_evaluation_gives_nine_classes_equity_and_the_cube_decision(client):
    """Catches chances that do not add up, a missing cube decision with a cube, and a match score
    that gives no match winning chance."""
    data = post(client, "/eval", {"position": "W:1x14,12 B:1x15 b",
                                  "cube": {"value": 1, "owner": "centre"}})
    p = data["probabilities"]
    classes = [k for k in p if k.startswith(("win_", "lose_"))] + ["draw"]
    assert len(classes) == 9 and abs(sum(p[k] for k in classes) - 1) < 1e-6
    from nardy_cli.match.cube import DECISIONS
    assert data["cube"]["decision"] in DECISIONS
    match = post(client, "/eval", {"position": OPENING, "match": {"length": 7, "score": [2, 3]}})
    assert 0 < match["mwc"] < 1


def test_ranking_from_the_book_and_at_each_depth(client):
    """Catches a ranking out of order, a depth that does not search, and the book not answering
    an opening decision it holds."""
    for plies, name in ((0, "neural"), (1, "lookahead:neural"), (2, "lookahead2:neural")):
        data = post(client, "/rank", {"position": OPENING, "dice": "4-2", "plies": plies,
                                      "book": False})
        assert data["evaluator"] == name
        searched = [p["equity"] for p in data["plays"] if p["depth"] != "0-ply" or plies == 0]
        assert searched == sorted(searched, reverse=True) and len(searched) >= 2
    book = post(client, "/rank", {"position": "start", "dice": "3-3"})
    assert book["source"] == "opening book" and len(book["plays"]) >= 2


@pytest.mark.parametrize("body, status, field, quoted", [
    ({"position": "W:1x16 B:1x15 w"}, 400, "position", "1x16"),
    ({"position": "start", "dice": "7-1"}, 400, "dice", "7"),
    ({"positio": "start"}, 422, "positio", "Extra inputs"),
    ({"board": {"white": [1] * 23, "black": [15] + [0] * 23}}, 422, "board.white", "24"),
    ({}, 400, "position", "give a position"),
])
def test_errors_name_the_field_at_fault(client, body, status, field, quoted):
    """Catches an error that is not JSON, not 4xx, or does not name the bad field and token."""
    data = post(client, "/position", body, status)
    assert data["field"] == field and quoted in data["error"]


def test_the_guard_refuses_foreign_hosts_origins_and_big_bodies(client):
    """Catches a server a page elsewhere could drive (DNS rebinding: a foreign Host header;
    a cross-origin request), a path climbing out of the page's folder answered, and a body past
    its cap read whole."""
    r = client.post("/api/v1/position", json={"position": "start"},
                    headers={"Host": "attacker.example"})
    assert r.status_code == 421 and r.json()["field"] == "Host"
    r = client.post("/api/v1/position", json={"position": "start"},
                    headers={"Origin": "http://attacker.example"})
    assert r.status_code == 403 and r.json()["field"] == "Origin"
    assert client.get("/static/../app.py").status_code == 404    # the client drops the ..
    for path in ("/static/..%2f..%2fpyproject.toml", "/static/%2e%2e/jobs.py",
                 "/static/..%5capp.py"):
        r = client.get(path)
        assert r.status_code == 400 and r.json()["field"] == "path", path
        assert "outside the server's files" in r.json()["error"]
    assert client.get("/static/main.js").status_code == 200
    big = json.dumps({"position": "start", "pad": "x" * 70_000})
    r = client.post("/api/v1/position", content=big, headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and "cap" in r.json()["error"]

    def chunks():
        for _ in range(100):
            yield b" " * 1000
    r = client.post("/api/v1/position", content=chunks(),
                    headers={"Content-Type": "application/json"})
    assert r.status_code == 413
    assert "access-control-allow-origin" not in {k.lower() for k in r.headers}


def test_a_rollout_over_the_cap_is_refused(client):
    """Catches a rollout of any size accepted (a page could tie the machine up)."""
    data = post(client, "/rollouts", {"position": OPENING, "games": 60_000}, 400)
    assert data["field"] == "games" and "50,000" in data["error"]


def _events(client, job_id):
    out = []
    with client.stream("GET", f"/api/v1/rollouts/{job_id}/events") as stream:
        kind = None
        for line in stream.iter_lines():
            if line.startswith("event:"):
                kind = line.split(":", 1)[1].strip()
            elif line.startswith("data:"):
                out.append((kind, json.loads(line[5:])))
    return out


def test_a_rollout_job_streams_progress_and_ends(client):
    """Catches a job whose progress does not stream (games done, estimate and interval) or that
    never ends, and a second job over the concurrent cap accepted."""
    job = post(client, "/rollouts", {"position": OPENING, "games": 648}, 202)
    refused = post(client, "/rollouts", {"position": OPENING, "games": 100}, 429)
    assert refused["field"] == "games" and "running" in refused["error"]
    events = _events(client, job["job_id"])
    games = [d["results"][0]["games"] for k, d in events if d["results"][0]]
    assert games == sorted(games) and games[-1] == 648 and len(set(games)) >= 3
    assert events[-1][0] == "end" and events[-1][1]["status"] == "done"
    last = events[-1][1]["results"][0]
    assert last["ci95"][0] < last["equity"] < last["ci95"][1]


def _cancel_after_first_update(client):
    """Start a 50,000-game rollout, cancel it once a partial result came; its events."""
    play = str(legal_plays(parse_position(OPENING), "4-2")[0])
    job = post(client, "/rollouts", {"position": OPENING, "dice": "4-2", "plays": [play],
                                     "games": 50_000}, 202)
    deadline = time.monotonic() + 120
    while client.get(f"/api/v1/rollouts/{job['job_id']}").json()["updates"] == 0:
        assert time.monotonic() < deadline
        time.sleep(0.2)
    post(client, f"/rollouts/{job['job_id']}/cancel", {})
    return _events(client, job["job_id"])


def test_a_cancelled_rollout_keeps_the_games_it_finished(client):
    """Catches a cancel that does not stop the worker, or loses what it finished."""
    events = _cancel_after_first_update(client)
    assert events[-1][1]["status"] == "cancelled"
    assert 0 < events[-1][1]["results"][0]["games"] < 50_000


def test_a_server_started_with_sigint_ignored_still_cancels(tmp_path):
    """Catches a job worker that inherits an ignored SIGINT (`nardy serve &` from a script, the
    way a shell without job control starts it): cancel is SIGINT, so the rollout would play all
    its games and end "done"."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        app = create_app(ServeConfig(allowed_hosts=("testserver",),
                                     library=tmp_path / "library.sqlite",
                                     max_rollout_games=50_000, max_jobs=1))
        with TestClient(app) as c:
            events = _cancel_after_first_update(c)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert events[-1][1]["status"] == "cancelled"
    assert 0 < events[-1][1]["results"][0]["games"] < 50_000


def test_a_game_against_the_bot_with_the_tutor(client, library):
    """Catches a tutor that lets a very bad play through unwarned, a confirmed play refused, take
    back that does not restore the dice, and a saved game missing from the library folder or the
    library."""
    game = post(client, "/games", {"bot": "lookahead:neural", "seed": 5})
    gid = game["game_id"]
    game = post(client, f"/games/{gid}/roll", {})
    assert game["dice"] == "6-1"
    game = post(client, f"/games/{gid}/play", {"play": game["plays"][-1]["play"]})
    assert game["made"]
    game = post(client, f"/games/{gid}/roll", {})
    assert game["dice"] == "5-2"
    bad = post(client, f"/games/{gid}/play", {"play": "8/10 10/15"})
    assert not bad["made"] and bad["warning"]["mark"] == "very bad"
    assert bad["warning"]["lost_mp"] >= 160
    made = post(client, f"/games/{gid}/play", {"play": "8/10 10/15", "confirm": True})
    assert made["made"] and made["history"][2]["play"] == "8/10 10/15"
    back = post(client, f"/games/{gid}/undo", {})
    assert back["dice"] == "5-2" and len(back["history"]) == 2
    hint = post(client, f"/games/{gid}/hint", {})
    assert hint["plays"][0]["play"] == bad["warning"]["best"]
    review = client.get(f"/api/v1/games/{gid}/review").json()
    assert review["summary"][0]["plies"] >= 1 and review["plies"][0]["forced"]
    page = client.get(f"/api/v1/games/{gid}/review.html")
    assert page.status_code == 200 and "<html" in page.text.lower()
    saved = post(client, f"/games/{gid}/save", {"player": "../../outside"})
    assert saved["saved"].startswith(str(library.parent / "games"))
    players = client.get("/api/v1/library/players").json()["players"]
    assert "../../outside" in players
    assert client.get("/api/v1/library/stats").status_code == 200
    quiz = client.get("/api/v1/library/quiz", params={"player": "../../outside"})
    assert quiz.status_code == 200 and isinstance(quiz.json()["cards"], list)
    unknown = client.get("/api/v1/library/quiz", params={"player": "nobody"})
    assert unknown.status_code == 400 and unknown.json()["field"] == "player"


def test_an_uploaded_record_is_reviewed_in_memory(client):
    """Catches an upload that is not reviewed, or a damaged one answered with a 5xx."""
    from pathlib import Path
    text = (Path(__file__).resolve().parent.parent / "games" / "bot-game.txt").read_text()
    data = post(client, "/review", {"text": text})
    assert data["kind"] == "game" and len(data["plies"]) > 10
    bad = post(client, "/review", {"text": "1. 6-5: 1/99\n"}, 400)
    assert bad["field"] == "text"


def test_the_book_tree_opens(client):
    """Catches a book endpoint that fails: first rolls, a roll's replies, an entry."""
    first = client.get("/api/v1/book").json()
    assert len(first["first_rolls"]) >= 15
    tree = client.get("/api/v1/book/tree", params={"roll": "6-5"}).json()
    assert len(tree["replies"]) == 21
    entry = post(client, "/book/entry", {"position": "start", "dice": "3-3"})
    assert len(entry["entry"]["plays"]) >= 2
    assert post(client, "/book/entry", {"position": OPENING, "dice": "6-6"}, 404)["field"] == \
        "position"


def test_the_openapi_document_and_docs_page(client):
    """Catches the API's document or its interactive page missing a documented route."""
    doc = client.get("/api/v1/openapi.json").json()
    for path in ("/api/v1/position", "/api/v1/plays", "/api/v1/eval", "/api/v1/rank",
                 "/api/v1/rollouts", "/api/v1/rollouts/{job_id}/events", "/api/v1/games",
                 "/api/v1/review", "/api/v1/book", "/api/v1/library/quiz"):
        assert path in doc["paths"], path
    assert client.get("/api/docs").status_code == 200
    assert "nardy" in client.get("/").text


def test_a_game_with_the_cube_over_the_api(client):
    """Catches the cube missing from a game's state, a double the bot does not answer, and a
    double refused when it is the person's right."""
    game = post(client, "/games", {"bot": "neural", "seed": 3, "with_cube": True,
                                   "tutor": False})
    assert game["cube"] == {"value": 1, "owner": "centre", "may_double": True, "offered": None}
    doubled = post(client, f"/games/{game['game_id']}/double", {})
    assert doubled["cube"]["value"] == 2 and doubled["cube"]["owner"] == "black"
    assert doubled["bot_plays"][0]["cube"] == ["take"] and not doubled["cube"]["may_double"]
    again = post(client, f"/games/{game['game_id']}/double", {}, 409)
    assert again["field"] == "game_id" and "owns the cube" in again["error"]
    post(client, f"/games/{game['game_id']}/roll", {})
    tutored = post(client, "/games", {"bot": "neural", "seed": 3, "with_cube": True})
    warned = post(client, f"/games/{tutored['game_id']}/double", {})
    assert not warned["made"] and warned["warning"]["mark"] == "very bad"
    assert warned["warning"]["best"] == "no double" and warned["cube"]["value"] == 1
    made = post(client, f"/games/{tutored['game_id']}/double", {"confirm": True})
    assert made["made"] and made["cube"]["value"] == 2
    crawford = post(client, "/games", {"bot": "neural", "with_cube": True,
                                       "match": {"length": 5, "score": [4, 2], "crawford": True}})
    assert crawford["cube"]["may_double"] is False
