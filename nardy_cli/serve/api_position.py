"""`/api/v1/position`, `/plays`, `/eval`, `/rank`: a position in and out, its legal plays with their
steps, its evaluation and cube decision, and a roll's plays ranked (opening book, 0-2 ply)."""

from __future__ import annotations

from fastapi import APIRouter

from ..core.engine import legal_plays, outcome
from ..core.position_id import format_position_id
from .inputs import ApiError, blame, position_data, position_of, rules_of, stakes_of
from .schemas import EvalIn, PositionIn, RankIn

router = APIRouter(prefix="/api/v1", tags=["positions"])


@router.post("/position", summary="A position from notation, an ID or a board")
def position(body: PositionIn) -> dict:
    """The position, always with its notation and ID; `result` once the game is over."""
    pos = position_of(body)
    over = outcome(pos, rules_of(body))
    return {**position_data(pos),
            "result": None if over is None else {"winner": over.winner, "class": over.kind}}


@router.post("/plays", summary="The legal plays of a roll, each with its steps and result")
def plays(body: PositionIn) -> dict:
    """Every distinct legal play of the dice: its text, its steps (from, to) in playing order in
    the mover's numbering (25 is off), and the resulting position with its ID."""
    pos = position_of(body)
    if pos.dice is None:
        raise ApiError("no dice: give dice (e.g. '6-5') or a position that carries them", "dice")
    with blame("position"):
        found = legal_plays(pos.with_dice(None), pos.dice, rules_of(body))
    return {**position_data(pos),
            "plays": [{"play": str(p), "steps": [list(s) for s in p.steps],
                       "result": str(p.result), "result_id": format_position_id(p.result)}
                      for p in found]}


@router.post("/eval", summary="Outcome chances, equity and the cube decision")
def evaluate(body: EvalIn) -> dict:
    """The network's chances of the nine outcome classes for the side to move (about to roll),
    its equity (money points) and at a match score its match winning chance; with a cube, the cube
    decision of the side on roll."""
    from ..analysis.deficit import static_deficit
    from ..policies.estimate import neural_estimate
    pos = position_of(body).with_dice(None)
    rules, stakes = rules_of(body), stakes_of(body)
    valuation = stakes.valuation(rules) if stakes.match is not None else None
    with blame("position"):
        est = neural_estimate(pos, rules, valuation=valuation)
        deficit = static_deficit(pos, rules)
    record = {**position_data(pos), "method": est.method, "probabilities": est.probabilities,
              "equity": est.equity,
              "deficit": {"p_full": deficit.p_full, "p_partial": deficit.p_partial,
                          "p_pass": deficit.p_pass,
                          "expected_lost_pips": deficit.expected_lost_pips}}
    if stakes.match is not None:
        record["match"] = stakes.match.to_dict()
        record["mwc"] = est.mwc
    if stakes.cube is not None:
        from ..match.cube_decision import cube_decision
        with blame("cube"):
            decision = cube_decision(pos, stakes, rules, probabilities=est.probabilities)
        record["cube"] = {"state": stakes.cube_dict(), **decision.to_dict()}
    return record


@router.post("/rank", summary="A roll's plays ranked (opening book, or 0/1/2-ply)")
def rank(body: RankIn) -> dict:
    """The roll's plays best first with equity and outcome chances.  The opening book answers
    when it holds the decision (`book`, money, federation rules); otherwise the network ranks them
    `plies` deep (1 and 2 search the 5 best deeper)."""
    from ..analysis.depth_rank import depth_evaluator, rank_at_depth
    pos = position_of(body)
    if pos.dice is None:
        raise ApiError("no dice: give dice (e.g. '6-5') or a position that carries them", "dice")
    rules, stakes = rules_of(body), stakes_of(body)
    if body.book and stakes.match is None:
        from ..book.read import load_book
        entry = load_book().answers(pos.with_dice(None), pos.dice, rules)
        if entry is not None and len(entry.get("plays", [])) >= 2:
            return {"source": "opening book", **position_data(pos), **entry}
    with blame("position"):
        ranking = rank_at_depth(pos, pos.dice, depth_evaluator(body.plies), rules, stakes)
    return {"source": "evaluator", **position_data(pos), **ranking.to_dict()}
