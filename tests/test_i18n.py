"""Russian output (`nardy --lang ru`, NARDY_LANG): every message has a translation, and commands
speak it.

The completeness tests list what is missing as JSON lines to paste into nardy_cli/data/ru.json:
after a merge, new English output shows up here once it is wrapped in `_()` (docs/russian.md says
how).
"""

from __future__ import annotations

import ast
import json
import re
import string
from pathlib import Path

import pytest
from click.testing import CliRunner

from nardy_cli.core import i18n
from nardy_cli.commands.cli import cli

PACKAGE = Path(i18n.__file__).parent.parent
TEMPLATE_CALL = re.compile(r'_\("((?:[^"\\]|\\.)*)"[,)]')    # templates and review_page.js


def run(*args, env=None):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False, env=env, prog_name="nardy")


def _marker(func) -> bool:
    """`_`, `N_`, or `i18n._` / `i18n.N_` (a module whose functions use `_` as a throwaway name)."""
    return (isinstance(func, ast.Name) and func.id in ("_", "N_")) or (
        isinstance(func, ast.Attribute) and func.attr in ("_", "N_")
        and isinstance(func.value, ast.Name)
        and func.value.id == "i18n")


def _marked_calls():
    """Every `_(...)` and `N_(...)` call of the package: (where, its argument node)."""
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and _marker(node.func):
                yield f"{path.relative_to(PACKAGE)}:{node.lineno}", node


def source_messages() -> dict[str, str]:
    """Every message the package marks for translation -> where it is first marked (code and
    templates)."""
    found: dict[str, str] = {}
    for where, node in _marked_calls():
        arg = node.args[0] if len(node.args) == 1 else None
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            found.setdefault(arg.value, where)
    for path in sorted((PACKAGE / "reports" / "templates").glob("*")):
        for match in TEMPLATE_CALL.finditer(path.read_text(encoding="utf-8")):
            found.setdefault(json.loads(f'"{match.group(1)}"'), str(path.relative_to(PACKAGE)))
    return found


def russian() -> dict:
    return json.loads((PACKAGE / "data" / "ru.json").read_text(encoding="utf-8"))


def test_every_marked_message_has_a_russian_translation():
    """Catches a message wrapped in `_()` (or a template's `_("...")`) with no Russian text: it
    would print in English in the middle of Russian output.  The failure lists each one, ready to
    translate."""
    catalogue = russian()["messages"]
    missing = {m: where for m, where in source_messages().items() if not catalogue.get(m)}
    assert not missing, "untranslated, add to nardy_cli/data/ru.json:\n" + "\n".join(
        f"{json.dumps(m, ensure_ascii=False)}: \"\",   // {where}" for m, where in missing.items())


def test_the_catalogue_holds_no_stale_message():
    """Catches a catalogue entry whose English text changed or went away in the code (the
    translation then never shows, and a translator keeps one nobody reads)."""
    stale = sorted(set(russian()["messages"]) - set(source_messages()))
    assert not stale, "in ru.json but nowhere in the code:\n" + "\n".join(stale)


def test_every_marked_message_is_one_literal_string():
    """Catches `_(f"...")`, `_(text)` or `_("a" + b)`: such a message cannot be found by the scan,
    so it would never be translated and the completeness test would not notice."""
    bad = [where for where, node in _marked_calls()
           if len(node.args) != 1 or node.keywords or not (isinstance(node.args[0], ast.Constant)
                                                            and isinstance(node.args[0].value,
                                                                           str))]
    assert not bad, f"not one literal string: {bad}"


def _fields(text: str) -> list[tuple[str, str]]:
    return sorted((name, spec or "") for _lit, name, spec, _conv in string.Formatter().parse(text)
                  if name is not None)


def test_translations_keep_every_placeholder():
    """Catches a translation that drops or misspells a `{field}` of its template (a number silently
    missing, or a KeyError at run time). A translation may use `{sides}` (the genitive of the side)
    for `{side}`."""
    bad = []
    for msgid, text in russian()["messages"].items():
        want = {(n.replace("sides", "side").replace("words", "word"), s) for n, s in _fields(msgid)}
        got = {(n.replace("sides", "side").replace("words", "word"), s.replace(",", "")) for n,
               s in _fields(text)}
        if {(n, s.replace(",", "")) for n, s in want} != got:
            bad.append((msgid, text))
    assert not bad, bad


def test_an_unknown_language_is_one_line_and_exit_2():
    """Catches an unknown --lang or NARDY_LANG falling back to English silently, or a traceback."""
    out = run("--lang", "de", "show", "start")
    assert out.exit_code == 2
    assert out.output == ("Error: --lang: unknown language 'de': choose one of en, "
                          "ru (see 'nardy --help')\n")
    out = run("show", "start", env={"NARDY_LANG": "xx"})
    assert out.exit_code == 2
    assert out.output == ("Error: NARDY_LANG: unknown language 'xx': choose one of en, "
                          "ru (see 'nardy --help')\n")


def test_the_option_wins_over_the_environment_and_english_is_the_default():
    """Catches NARDY_LANG overriding --lang, an empty NARDY_LANG being an error, and --lang en
    differing from no option at all (English output must stay exactly as it was)."""
    english = run("show", "start").output
    assert run("--lang", "en", "show", "start", env={"NARDY_LANG": "ru"}).output == english
    assert run("show", "start", env={"NARDY_LANG": ""}).output == english
    assert "Ходят Белые" in run("show", "start", env={"NARDY_LANG": "ru"}).output


def test_the_language_does_not_outlive_the_command():
    """Catches the CLI leaving Russian switched on after a command (a library call or the next
    command run in the same process would then speak Russian unasked)."""
    run("--lang", "ru", "show", "start")
    assert i18n.language() == "en"
    assert run("show", "start").output.endswith("White to move\n")


def test_eval_start_in_russian():
    """Catches an untranslated line, a lost number or a broken column of
    `nardy --lang ru eval start`."""
    out = run("--lang", "ru", "eval", "start")
    assert out.exit_code == 0
    assert out.output == (
        "W:1x15 B:1x15 w   Ходят Белые\n"
        "сеть (0-ply), правила federation, шансы белых:\n"
        "  выигрыш   0.516  (ойн 0.384, домашний марс 0.000, марс 0.027, кокс 0.105)\n"
        "  проигрыш  0.391  (ойн 0.333, домашний марс 0.005, марс 0.012, кокс 0.040)\n"
        "  ничья     0.093\n"
        "эквити +0.200   пипсы: белые 360, чёрные 360\n"
        "статический дефицит ходов: полный ход 0.972, неполный 0.028, пропуск 0.000, "
        "ожидаемая потеря пипсов 0.33\n")


class _Recording(dict):
    """A catalogue section that remembers every key asked for and not found."""

    def __init__(self, data, misses):
        super().__init__(data)
        self.misses = misses

    def get(self, key, default=None):
        if key not in self:
            self.misses.add(key)
        return super().get(key, default)


# Commands whose text output a Russian reader sees (small and quick: heuristic rollouts of 36
# games).
TABLE_COMMANDS = (
    ("eval", "start", "W:19x2,20 B:22,24 w", "--cube-owner", "centre"),
    ("eval", "start", "--match", "7", "--score", "4-6"),
    ("show", "start"),
    ("moves", "start"),
    ("deficit", "positions/study.txt:deficit-heavy"),
    ("rollout", "start", "--policy", "heuristic", "--games", "36", "-q", "--match", "5", "--score",
     "2-3"),
    ("analyze", "W:1x13,8,12 B:1x13,6,11 w 4-2", "--no-staged", "--games", "36", "--policy",
     "heuristic", "-q"),
    ("analyze", "W:1x13,8,12 B:1x13,6,11 w 4-2", "--games", "36", "--policy", "heuristic", "-q",
     "--match", "5", "--score", "2-3"),
    ("openings", "--rolls", "65", "--games", "36", "--policy", "heuristic", "-q", "--replies",
     "--reply-games", "36"),
    ("batch", "positions/study.txt", "--games", "36", "--policy", "heuristic", "-q"),
    ("duel", "heuristic", "racer", "--games", "72", "-q"),
    ("met", "--length", "3", "--se"),
    ("play", "heuristic", "racer", "--games", "2"),
    ("play", "heuristic", "racer", "--match", "3", "--games", "2"),
    ("review", "games/bearoff-blunder.txt"),
    ("review", "games/bot-match.txt"),
    # a cube match: its totals, one game's cube table and the note on a self-reviewed side
    ("review", "games/cube-match.mat"),
    ("review", "games/cube-match.mat", "--game", "2"),
)

# Three or more lowercase English words in a row: a line of output nobody wrapped in `_()`.  Names
# (policies, `lookahead:heuristic`), notation and file names have punctuation in them or are one or
# two words.
ENGLISH = re.compile(r"(?<![\w:./-])[a-z]{2,}(?:[ ,]+[a-z]{2,}){2,}(?![\w:/])")


def english_left(text: str) -> list[str]:
    """The lines of `text` that hold an English phrase."""
    return [line for line in text.splitlines() if ENGLISH.search(line)]


@pytest.mark.parametrize("args", TABLE_COMMANDS, ids=lambda a: " ".join(a[:2]))
def test_every_command_speaks_russian_throughout(args, monkeypatch):
    """Catches a new column in a command's text table (its header is the column's name) with no
    Russian header in ru.json's `columns`, and a new line of output left in English (not wrapped in
    `_()`); the failure names the columns and quotes the English lines."""
    real = i18n.catalogue("ru")
    misses: set = set()
    monkeypatch.setattr(i18n, "catalogue", lambda lang: {"messages": real["messages"],
                                                         "columns": _Recording(real["columns"],
                                                                               misses)})
    # output and error output (the lines saying where a file went)
    out = run("--lang", "ru", *args)
    assert out.exit_code == 0, out.output
    assert not misses, f"add to the columns of nardy_cli/data/ru.json: {sorted(misses)}"
    assert not english_left(out.output), english_left(out.output)


def test_a_russian_analysis_report_and_review_page_hold_no_english(tmp_path):
    """Catches English left in a Russian report folder (report.md, report.html) or review folder,
    e.g. a new caption or template line not wrapped in `_()`."""
    import html as html_lib
    assert run("--lang", "ru", "analyze", "W:1x13,8,12 B:1x13,6,11 w 4-2", "--games", "36",
               "--policy", "heuristic", "-q", "--output", str(tmp_path / "a"),
               "--html").exit_code == 0
    assert run("--lang", "ru", "review", "games/bearoff-blunder.txt", "--output",
               str(tmp_path / "r"), "--html").exit_code == 0
    assert run("--lang", "ru", "review", "games/cube-match.mat", "--output",
               str(tmp_path / "m"), "--html").exit_code == 0
    texts = {}
    for path in [tmp_path / "a" / "report.md", tmp_path / "r" / "report.md",
                 tmp_path / "a" / "report.html", tmp_path / "r" / "report.html",
                 tmp_path / "m" / "report.md", tmp_path / "m" / "report.html"]:
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".html":
            text = re.sub(r"<(style|script)[^>]*>.*?</\1>", "", text, flags=re.S)
            text = html_lib.unescape(re.sub(r"<[^>]+>|data:image/[^\"]+", " ", text))
        texts[str(path.relative_to(tmp_path))] = english_left(text)
    assert not any(texts.values()), texts


def test_russian_phrases_agree_with_their_subjects():
    """Bug caught (issue 41): Russian phrases in the wrong grammatical case or number: "оценено при
    матч до 5" (a nominative after "при"), "Чёрные — не может удвоить" (a singular verb for a
    side), "Белые выброшено 0"; and the bear-off method and the cube review's actions, errors and
    cube left in English."""
    out = run("--lang", "ru", "review", "games/cube-match.mat", "--game", "2")
    assert out.exit_code == 0, out.output
    assert "при матч " not in out.output
    assert "\nматч до 5 при счёте 1-1 (белые-чёрные): столбцы эквити нормированы" in out.output
    assert "За чёрных (neural) играл сам оценщик разбора neural" in out.output
    assert ("  3. heuristic  1 в центре  дабл, отказ   без удвоения" in out.output
            and "ошибочное удвоение, ошибочный отказ" in out.output)
    out = run("--lang", "ru", "eval", "W:- B:20 b", "--cube-owner", "white", "--cube", "2")
    assert out.output.splitlines()[1] == ("база выброса (двусторонняя, точно), правила "
                                          "federation, шансы чёрных:")
    assert "куб 2, у белых: Чёрные — не могут удвоить" in out.output
    shown = run("--lang", "ru", "show", "W:- B:20 b").output.splitlines()
    assert shown[-3:-1] == ["Белые  — выброшено 15   пипсы   0",
                            "Чёрные — выброшено 14   пипсы   5"]


def test_a_russian_chart_keeps_its_run_line_inside_the_figure(tmp_path):
    """Bug caught (issue 41): the outcome chart's run line (equity, policies, games, rules) running
    past the right edge of the figure in Russian, whose tick labels and words are longer."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from nardy_cli.analysis.rollout import rollout
    from nardy_cli.core.position import parse_position
    from nardy_cli.reports.charts import outcome_chart
    from nardy_cli.reports.figures import save_figure
    result = rollout(parse_position("W:1x14,12 B:1x15 b"), "heuristic", games=40, seed=1)
    with i18n.using_language("ru"):
        fig = outcome_chart(result)
        save_figure(fig, tmp_path / "outcomes.png")
    renderer = FigureCanvasAgg(fig).get_renderer()
    box = fig.axes[0].title.get_window_extent(renderer)
    assert 0 <= box.x0 and box.x1 <= fig.bbox.width, (box, fig.bbox.width)
    with i18n.using_language("en"):
        english = outcome_chart(result)
        save_figure(english, tmp_path / "en.png")
    assert "\n" not in english.axes[0].get_title()      # a line that fits stays one line


def _own_scope(node):
    """The nodes of one scope: a function's body without its nested functions, lambdas and
    comprehensions."""
    nested = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.GeneratorExp, ast.ListComp,
              ast.SetComp, ast.DictComp)
    todo = list(ast.iter_child_nodes(node))
    while todo:
        n = todo.pop()
        yield n
        if not isinstance(n, nested):
            todo.extend(ast.iter_child_nodes(n))


def test_no_scope_that_translates_binds_the_name_underscore():
    """Catches `a, _ = ...` or `for _ in ...` in a function (or comprehension) that also calls
    `_()`: the call then gets the throwaway value ('str' object is not callable) only when that line
    runs."""
    scopes = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.GeneratorExp, ast.ListComp,
              ast.SetComp, ast.DictComp)
    bad = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for scope in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(scope, scopes):
                continue
            nodes = list(_own_scope(scope))
            calls = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                        and n.func.id == "_" for n in nodes)
            binds = any(isinstance(n, ast.Name) and n.id == "_" and isinstance(n.ctx, ast.Store)
                        for n in nodes)
            if calls and binds:
                bad.append(f"{path.relative_to(PACKAGE)}:{scope.lineno}")
    assert not bad, bad


def test_rollout_in_russian_by_the_environment():
    """Catches NARDY_LANG being ignored, and a rollout table whose Russian rows lose their alignment
    or a figure (the table is the one a player reads most)."""
    out = run("rollout", "start", "--policy", "heuristic", "--games", "64", "-q", "--workers", "1",
              env={"NARDY_LANG": "ru"})
    assert out.exit_code == 0
    assert out.output == (
        "W:1x15 B:1x15 w   Ходят Белые\n"
        "партий: 64, heuristic (белые) против heuristic (чёрные), зерно 20261129, "
        "правила federation, стратификация\n"
        "\n"
        "исход для белых         вероятн.     ±95%\n"
        "выигрыш                   0.5155   0.1189\n"
        "  ойн                     0.1396   0.0786\n"
        "  домашний марс           0.0009   0.0017\n"
        "  марс                    0.0156   0.0306\n"
        "  кокс                    0.3594   0.1185\n"
        "проигрыш                  0.4559   0.1182\n"
        "  ойн                     0.2840   0.1061\n"
        "  домашний марс           0.0000   0.0000\n"
        "  марс                    0.0000   0.0000\n"
        "  кокс                    0.1719   0.0932\n"
        "ничья                     0.0286   0.0191\n"
        "\n"
        "эквити +0.2636 ± 0.3898 (95%), SE 0.1989\n"
        "средняя длина партии 92.5 полуходов\n"
        "\n"
        "дефицит ходов              Белые   Чёрные\n"
        "  не сыграно очко 1       0.0231   0.0235\n"
        "  не сыграно очко 2       0.0422   0.0743\n"
        "  не сыграно очко 3       0.1265   0.1227\n"
        "  не сыграно очко 4       0.1358   0.1644\n"
        "  не сыграно очко 5       0.1374   0.1646\n"
        "  не сыграно очко 6       0.1042   0.1147\n"
        "  потеря пипсов/партию     42.64    47.66\n"
        "  неполные ходы           0.0624   0.0851\n"
        "  пропуски хода           0.0564   0.0596\n"
        "партий, законченных в базах выброса: 29\n")


def test_deficit_and_duel_in_russian():
    """Catches the deficit's 6x6 table losing its alignment under longer Russian labels,
    untranslated table headers, and a duel line with an untranslated word or a lost figure."""
    out = run("--lang", "ru", "deficit", "W:22,23,24x13 B:7,22x7,23,24x6 b")
    assert out.exit_code == 0
    assert out.output == (
        "W:22,23,24x13 B:7,22x7,23,24x6 b   Ходят Чёрные   (правила federation)\n"
        "полный ход 0.5833   неполный 0.1667   пропуск 0.2500   ожидаемая потеря пипсов 3.222\n"
        "\n"
        " очко дефицит  подвижность\n"
        "    1  0.0000            9\n"
        "    2  0.0000            8\n"
        "    3  0.8571            0\n"
        "    4  0.7143            0\n"
        "    5  0.5714            0\n"
        "    6  0.0000            1\n"
        "\n"
        "сыграно шагов за бросок (из 2, или 4 при дубле; меньше, без потери, "
        "когда выброшена последняя шашка)\n                вторая кость\n"
        "первая кость    1  2  3  4  5  6\n"
        "           1    4  2  1  1  2  2\n"
        "           2    2  4  1  2  2  2\n"
        "           3    1  1  0  0  0  2\n"
        "           4    1  2  0  0  0  2\n"
        "           5    2  2  0  0  0  2\n"
        "           6    2  2  2  2  2  4\n")
    out = run("--lang", "ru", "duel", "heuristic", "racer", "--games", "72", "-q", "--workers", "1")
    assert out.exit_code == 0
    assert out.output == (
        "heuristic против racer, партий: 72, из начальной позиции, на одинаковых бросках, "
        "зерно 20261129, правила federation\n"
        "очков за партию (heuristic): +1.0972  95% ДИ [+0.8876, +1.3068]  SE 0.1069\n"
        "выигрыши 83.33%  95% ДИ [74.16%, 89.70%]   ничьи 4.17%\n"
        "марсы свои 13.89% / чужие 0.00%   коксы свои 25.00% / чужие 0.00%\n")


def test_a_russian_report_is_russian_and_its_data_stays_english(tmp_path):
    """Catches a report folder left in English under --lang ru (title, first line, headings,
    glossary), and translated machine-readable files: results.json and results.csv must be the
    English run's, byte for byte."""
    args = ("rollout", "start", "--policy", "heuristic", "--games", "36", "-q", "--workers", "1",
            "--html")
    assert run(*args, "--output", str(tmp_path / "en")).exit_code == 0
    assert run("--lang", "ru", *args, "--output", str(tmp_path / "ru")).exit_code == 0
    for name in ("results.json", "results.csv"):
        assert (tmp_path / "ru" / name).read_bytes() == (tmp_path / "en" / name).read_bytes(), name
    md = (tmp_path / "ru" / "report.md").read_text(encoding="utf-8")
    assert md.startswith("# Роллаут W:1x15 B:1x15 w\n\n**Белые выигрывают ")
    for heading in ("## Параметры запуска", "## Словарь", "- **ойн (oin)**: простой выигрыш",
                    "**Дефицит ходов каждой стороны в этих партиях**",
                    "Запуск: heuristic (обе стороны)"):
        assert heading in md, heading
    html = (tmp_path / "ru" / "report.html").read_text(encoding="utf-8")
    assert '<html lang="ru">' in html and "<h2>Словарь</h2>" in html


@pytest.mark.parametrize("args", [("eval", "start", "--format", "json"),
                                  ("eval", "start", "--format", "csv"),
                                  ("deficit", "start", "--format", "csv"),
                                  ("met", "--length", "3", "--format", "csv"),
                                  ("moves", "start", "--format", "json"),
                                  ("review", "games/bearoff-blunder.txt", "--format", "csv"),
                                  ("review", "games/bearoff-blunder.txt", "--format", "json")],
                         ids=lambda a: " ".join(a))
def test_csv_and_json_stay_english_in_russian(args):
    """Catches a translated CSV header, JSON key or value (a table's Russian header leaking into
    CSV, a side or a mark in Russian in JSON): machine-readable output is the same whatever the
    language."""
    assert run("--lang", "ru", *args).output == run(*args).output
