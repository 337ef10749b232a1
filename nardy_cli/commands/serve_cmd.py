"""`nardy serve`: the board in the browser and the JSON API (docs/serve.md)."""

from __future__ import annotations

from pathlib import Path

import click

from .common import handle_errors


@click.command("serve", epilog="""\b
Examples:
  nardy serve                      # http://127.0.0.1:8151/ (the API's docs at /api/docs)
  nardy serve --open               # and open it in the browser
  nardy serve --port 9000
  nardy --lang ru serve --open     # the page starts in Russian
  nardy serve --host 0.0.0.0 --allow-host nardy.example.org   # behind a reverse proxy
""")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; anything but loopback is reachable from the network "
                   "(a warning is printed).")
@click.option("--port", type=click.IntRange(1, 65535), default=None,
              help="Port to listen on [default: 8151].")
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the browser.")
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="NAME",
              help="Another name the Host header may carry (a reverse proxy's); repeatable. "
                   "Requests naming any other host are refused (DNS rebinding).")
@click.option("--library", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The library's database file [default: nardy library's own]; saved games go "
                   "into its folder.")
@click.option("--max-games", type=click.IntRange(1, None), default=100_000, show_default=True,
              help="Most games one rollout job may ask for.")
@click.option("--max-jobs", type=click.IntRange(1, 64), default=2, show_default=True,
              help="Rollout jobs running at once.")
@click.option("--workers", type=click.IntRange(1, None), default=1, show_default=True,
              help="Worker processes of each rollout job.")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Run rollout jobs on this Dask scheduler (needs `pip install nardy[dask]`).")
@handle_errors
def command(host, port, open_browser, allow_hosts, library, max_games, max_jobs, workers,
            scheduler) -> None:
    """Start the web app: a board to set up, analyse and play on, over a JSON API.

    One process; rollouts run in worker processes.  Ctrl-C stops the server and
    its workers.  The API is versioned (/api/v1/...), documented at /api/docs.
    """
    from ..core.i18n import language as current_language
    from ..serve.config import DEFAULT_PORT, ServeConfig
    from ..serve.server import exposed, serve
    config = ServeConfig(host=host, port=port or DEFAULT_PORT, allowed_hosts=tuple(allow_hosts),
                         library=library, max_rollout_games=max_games, max_jobs=max_jobs,
                         job_workers=workers, executor="dask" if scheduler else "local",
                         scheduler=scheduler)
    if exposed(config):
        click.echo(f"Warning: listening on {host}: anyone who can reach this machine can use "
                   "the server (no login); put it behind a reverse proxy (docs/serve.md)",
                   err=True)
    lang = current_language()

    def ready(url: str) -> None:
        click.echo(f"nardy serve: {url}{'?lang=ru' if lang == 'ru' else ''}   (API docs: "
                   f"{url}api/docs; Ctrl-C stops)")
    if open_browser and lang == "ru":
        open_browser = False
        import webbrowser

        def ready(url: str, _say=ready) -> None:  # noqa: F811 - the page in the chosen language
            _say(url)
            webbrowser.open(url + "?lang=ru")
    serve(config, open_browser, on_ready=ready)
    click.echo("nardy serve: stopped.", err=True)
