// The page's words in English and Russian (the API and notation stay English, as on the command
// line).  ?lang=ru in the address, or the button, chooses.
"use strict";
const I18n = (() => {
  const WORDS = {
    "tab.analyse": ["Set up & analyse", "Расстановка и анализ"],
    "tab.play": ["Play against nardy", "Игра против nardy"],
    "tab.book": ["Opening book", "Дебютная книга"],
    "api": ["API", "API"],
    "view": ["Numbering", "Нумерация"], "view.auto": ["side to move", "того, чей ход"],
    "white": ["White", "Белые"], "black": ["Black", "Чёрные"],
    "notation": ["Notation", "Запись"], "id": ["Position ID", "ID позиции"],
    "copy": ["copy", "копировать"], "copied": ["copied", "скопировано"],
    "load": ["load", "загрузить"],
    "editor": ["Board editor", "Редактор доски"],
    "editor.hint": ["Click a point to add a checker of the chosen colour, right-click (or shift-click) to take one away, drag a checker to move it.",
                    "Щелчок по пункту добавляет шашку выбранного цвета, правый щелчок (или с Shift) убирает, шашку можно перетащить."],
    "start": ["Start position", "Начальная позиция"], "clear": ["Clear", "Очистить"],
    "swap": ["Swap sides", "Поменять стороны"], "to.move": ["To move", "Ход"],
    "to.move.lc": ["to move", "ходят"], "dice": ["Dice", "Кости"], "dice.lc": ["dice", "кости"],
    "cube": ["Cube", "Куб"], "cube.none": ["none", "нет"], "cube.centre": ["1, centred", "1, в центре"],
    "match": ["Match to", "Матч до"], "score": ["score", "счёт"],
    "plays": ["Plays", "Ходы"], "games": ["games", "партий"],
    "rollout.top": ["Roll out the top", "Роллаут лучших"], "rollout": ["Roll out", "Роллаут"],
    "cancel": ["Cancel", "Отменить"], "bot": ["Bot", "Бот"], "you.play": ["You play", "Вы играете"],
    "money0": ["(0: money)", "(0: на деньги)"], "tutor": ["Tutor", "Подсказчик"],
    "thresholds": ["warn from (mp): doubtful / bad / very bad",
                   "предупреждать от (mp): сомнительный / плохой / очень плохой"],
    "new.game": ["New game", "Новая партия"], "roll": ["Roll", "Бросить"],
    "hint": ["Hint", "Подсказка"], "undo": ["Undo", "Отменить ход"],
    "show.best": ["Show the best", "Показать лучший"], "play.anyway": ["Play it anyway", "Всё равно сыграть"],
    "take.back": ["Take back", "Переходить"], "review": ["Review", "Разбор"],
    "save": ["Save to my library", "Сохранить в библиотеку"],
    "with.cube": ["with the cube", "с кубом"], "no double": ["no double", "не удваивать"],
    "drop": ["pass", "отказаться"], "double": ["Double", "Удвоить"],
    "take": ["Take", "Принять"], "pass": ["Pass", "Отказаться"],
    "bot.doubles": ["nardy doubles to", "nardy удваивает до"], "bot.takes": ["nardy takes", "nardy принимает"],
    "bot.drops": ["nardy passes", "nardy отказывается"], "cube.at": ["cube", "куб"],
    "centre": ["centred", "в центре"], "review.page": ["the full review page", "полная страница разбора"],
    "off": ["off", "снято"], "pips": ["pips", "пипсы"], "numbering.of": ["numbering of", "нумерация:"],
    "rank": ["#", "№"], "play": ["play", "ход"], "equity": ["equity", "эквити"],
    "diff": ["diff", "разн."], "win": ["win", "выигрыш"], "lose": ["lose", "проигрыш"],
    "draw": ["draw", "ничья"], "depth": ["depth", "глубина"], "source": ["source", "источник"],
    "oin": ["oin", "ойн"], "mars": ["mars", "марс"], "home_mars": ["home-mars", "домашний марс"],
    "koks": ["koks", "кокс"], "chances": ["Chances for the side to move", "Шансы того, чей ход"],
    "cube.decision": ["Cube decision", "Решение по кубу"],
    "no_double": ["no double", "не удваивать"], "double_take": ["double, take", "удвоить, принять"],
    "double_pass": ["double, pass", "удвоить, отказаться"],
    "decision.no double": ["no double", "не удваивать"],
    "decision.double, take": ["double, take", "удвоить, принять"],
    "decision.double, pass": ["double, pass", "удвоить, отказаться"],
    "decision.too good": ["too good to double", "слишком хорошо, чтобы удваивать"],
    "your.turn.roll": ["Your turn: roll the dice.", "Ваш ход: бросьте кости."],
    "your.turn.play": ["Your turn: click a checker, then where it goes (or pick a play below).",
                       "Ваш ход: щёлкните шашку, затем куда её поставить (или выберите ход ниже)."],
    "bot.played": ["nardy played", "nardy сыграл"], "game.over": ["Game over", "Партия окончена"],
    "wins": ["wins", "выигрывают"], "by": ["by", ":"], "you.lose": ["loses", "теряет"],
    "tutor.says": ["The tutor: this play is", "Подсказчик: этот ход —"],
    "doubtful": ["doubtful", "сомнительный"], "bad": ["bad", "плохой"], "very bad": ["very bad", "очень плохой"],
    "best.is": ["the best is", "лучший"], "loses": ["it loses", "он теряет"],
    "first.rolls": ["White's first rolls", "Первые броски белых"],
    "replies": ["Black's replies", "Ответы чёрных"], "second.turn": ["White's second turn", "Второй ход белых"],
    "reply": ["reply", "ответ"], "roll.col": ["roll", "бросок"], "best": ["best", "лучший"],
    "games.col": ["games", "партии"], "verdict": ["verdict", "оценка"], "method": ["method", "метод"],
    "running": ["running", "идёт"], "done": ["done", "готово"], "cancelled": ["cancelled", "отменено"],
    "lost": ["lost", "потеряно"], "mark": ["mark", "оценка"], "played": ["played", "сыграно"],
    "saved.to": ["Saved to", "Сохранено в"], "illegal": ["Illegal set-up", "Неверная расстановка"],
  };
  let lang = new URLSearchParams(location.search).get("lang") || localStorage.getItem("nardy-lang") || "en";
  if (!["en", "ru"].includes(lang)) lang = "en";
  const t = key => (WORDS[key] ? WORDS[key][lang === "ru" ? 1 : 0] : key);
  function apply() {
    document.documentElement.lang = lang;
    document.querySelectorAll("[data-i18n]").forEach(e => { e.textContent = t(e.dataset.i18n); });
    document.getElementById("lang").textContent = lang === "ru" ? "English" : "Русский";
  }
  function toggle() {
    lang = lang === "ru" ? "en" : "ru";
    localStorage.setItem("nardy-lang", lang);
    apply();
  }
  return {t, apply, toggle, get lang() { return lang; }};
})();
