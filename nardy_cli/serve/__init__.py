"""`nardy serve`: a board in the browser over a versioned JSON API (docs/serve.md).

The app (`app.create_app`) is FastAPI on uvicorn: `guard` refuses foreign `Host` headers, foreign
origins and oversized bodies; the `api_*` modules answer `/api/v1/...` by calling the same library
functions the commands call (no game logic here); `jobs` runs rollouts in worker processes with
progress and cancel; `static/` is the page (plain files, no build step).
"""
