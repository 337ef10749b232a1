"""`/api/v1/rollouts`: rollouts as jobs in worker processes, their progress as server-sent events
(games done, estimate and its 95% interval), and cancel."""

from __future__ import annotations

import asyncio
import json

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse

from .inputs import ApiError, blame, position_data, position_of
from .schemas import RolloutIn

router = APIRouter(prefix="/api/v1/rollouts", tags=["rollouts"])
HEARTBEAT = 0.5     # seconds: an event at least this often, new figures or not
POLL = 0.1


@router.post("", status_code=202, summary="Start a rollout job")
def start(body: RolloutIn, request: Request) -> dict:
    """Roll out the position (or each of `plays`' results, on the same dice); refused over the
    server's caps (games a job, jobs at once)."""
    from ..core.engine import parse_play, require_in_play
    from .inputs import rules_of
    pos = position_of(body)
    rules = rules_of(body)
    with blame("position"):
        require_in_play(pos, rules)
    if body.plays:
        if pos.dice is None:
            raise ApiError("rolling out plays needs the dice they are played with", "dice")
        for text in body.plays:
            with blame("plays"):
                parse_play(pos.with_dice(None), text, pos.dice, rules)
    elif pos.dice is not None:
        raise ApiError("a rollout starts before the roll: drop the dice, or give plays to roll "
                       "out", "dice")
    job = request.app.state.jobs.start(str(pos), body.plays, body.policy, body.games, body.seed,
                                       body.rules)
    return {**position_data(pos), **job.to_dict()}


@router.get("/{job_id}", summary="A rollout job's state")
def state(job_id: str, request: Request) -> dict:
    return request.app.state.jobs.get(job_id).to_dict()


@router.post("/{job_id}/cancel", summary="Cancel a rollout job (its finished games are kept)")
def cancel(job_id: str, request: Request) -> dict:
    return request.app.state.jobs.cancel(job_id).to_dict()


@router.get("/{job_id}/events", summary="A rollout job's progress as server-sent events",
            response_class=StreamingResponse)
async def events(job_id: str, request: Request):
    """`event: progress` with the job's state whenever it changes (and at least twice a second),
    then `event: end` once the job is done, cancelled or failed."""
    job = request.app.state.jobs.get(job_id)

    async def stream():
        last, waited = -1, HEARTBEAT
        while True:
            if await request.is_disconnected():
                return
            finished = job.status != "running"
            if job.updates != last or waited >= HEARTBEAT or finished:
                last, waited = job.updates, 0.0
                kind = "end" if finished else "progress"
                yield f"event: {kind}\ndata: {json.dumps(job.to_dict())}\n\n"
                if finished:
                    return
            await asyncio.sleep(POLL)
            waited += POLL
    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store"})
