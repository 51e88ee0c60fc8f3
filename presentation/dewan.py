"""Dewan's turn in chat as plain data (presentation/core.py): cards, story tiles, steps and payments in words,
payments and steps as the short tokens the panel keeps in its custom ids, camps worked out on a copy of the
state, the panel's prompts, the turn told in words and the score pad. Pure: the engine's state and the
catalogs, no discord.py; the generic panel (cogs/panel.py) shows them, the Dewan cog (cogs/dewan.py) adds the
typed commands.

``flow`` plays a turn as the panel does: a **take** (or pass, or a pending step) is one answer; a **camp** is the
destination, then the payment when there is a choice, then Confirm under a preview picture of the planned camp
(one Confirm per reward when the emptied slot offers a choice), and the whole camp is committed in one
``Done``. ``reword``, ``final_at`` and ``TELLS_STEPS`` are the generic panel's hooks.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from games.core import Event, IllegalAction
from games.dewan import GAME
from games.dewan import data as D
from games.dewan.engine import Action, DewanGame, DewanState
from presentation import core
from presentation.core import seat_label
from presentation.i18n import t

KEY = "dewan"
OPTIONS = 25  # options in one select menu
SELECT_ROWS = 3  # select menus for one long list (destinations, payments): up to 75 options
HEX_RE = re.compile(r"[A-H][0-6]", re.ASCII)
# A notation in a custom id or select value, spaces written "_": "take_3", "give_c17_2", "story_deck".
TOKEN_RE = re.compile(r"[a-z0-9_]{1,20}", re.ASCII)
# A payment: its cards in card order, "g<n>" for a card given to player n: "c05.c17g2".
PAYMENT_RE = re.compile(r"c[0-9]{2}(?:g[1-4])?(?:\.c[0-9]{2}(?:g[1-4])?){0,9}", re.ASCII)

Pick = tuple[str, "int | None"]  # a card of a payment and the seat it goes to (None: the discard pile)
Payment = tuple[Pick, ...]


def tr(locale: str, key: str, **params: Any) -> str:
    return t(locale, f"{KEY}.{key}", **params)


# -- words ------------------------------------------------------------------------------------------
def card_text(card: str, locale: str) -> str:
    """A terrain card in words: ``forest/water · fire``."""
    terrains, symbol = D.CARDS[card]
    text = "/".join(tr(locale, f"term.{terrain}") for terrain in terrains)
    return f"{text} · {tr(locale, f'term.{symbol}')}" if symbol else text


def cards_text(cards: Iterable[str], locale: str) -> str:
    """Cards in words only (no card numbers: a board post never names a card that may sit in a hand)."""
    return ", ".join(card_text(card, locale) for card in cards) or "-"


def plural(locale: str, word: str, count: int) -> str:
    """``1 card`` / ``2 cards``, ``1 карту`` / ``3 карты`` / ``5 карт``: ``plural.<word>`` is a plural entry of the
    catalogs (bot.i18n picks the form)."""
    return tr(locale, f"plural.{word}", n=count)


def own_card(card: str, locale: str) -> str:
    """A card of the player's own hand, for their private panel: ``c16 (forest · fire)``."""
    return f"{card} ({card_text(card, locale)})"


def story_text(tile: str, locale: str) -> str:
    """A story tile: ``t07: mountain + crystal · 3 points · fire``."""
    needs, points, fire = D.STORIES[tile]
    text = tr(locale, "story_tile", tile=tile, needs=" + ".join(tr(locale, f"term.{n}") for n in needs),
              points=plural(locale, "point", points))
    return f"{text} · {tr(locale, 'term.fire')}" if fire else text


def action_label(action: Action, names: Sequence[str], row: list[str | None], locale: str) -> str:
    """A step as the panel's button says it."""
    kind = action[0]
    if kind == "take":
        first, second = row[action[1] - 1], row[action[1]]
        return tr(locale, "label.take", a=action[1], b=action[1] + 1,
                  cards=" + ".join(card_text(c, locale) for c in (first, second) if c))
    if kind == "take1":
        card = row[action[1] - 1]
        return tr(locale, "label.take1", a=action[1], cards=card_text(card, locale) if card else "-")
    if kind == "story":
        return tr(locale, "label.story_deck") if action[1] == "deck" else story_text(action[1], locale)
    if kind == "tuck":
        return tr(locale, "label.tuck", card=own_card(action[1], locale))
    if kind == "pay":
        return tr(locale, "label.pay", card=own_card(action[1], locale))
    if kind == "give":
        return tr(locale, "label.give", card=own_card(action[1], locale), player=names[action[2]])
    if kind == "camp":
        return tr(locale, "label.camp", hex=action[1])
    return tr(locale, "label.pass")


def payment_text(payment: Payment, names: Sequence[str], locale: str) -> str:
    """``c05 (forest), c20 (mountain) → Bob``: what a payment spends, for the payer's eyes only."""
    parts = [own_card(card, locale) if to is None else f"{own_card(card, locale)} → {names[to]}"
             for card, to in payment]
    return ", ".join(parts)


# -- payments in custom ids -------------------------------------------------------------------------
def payment_of(discards: Iterable[str], gives: Iterable[tuple[int, Iterable[str]]]) -> Payment:
    """The engine's (discarded cards, ((seat, cards), ...)) as picks in card order."""
    picks: list[Pick] = [(card, None) for card in discards]
    picks += [(card, seat) for seat, cards in gives for card in cards]
    return tuple(sorted(picks, key=lambda pick: pick[0]))


def encode_payment(payment: Payment) -> str:
    return ".".join(card if to is None else f"{card}g{to + 1}" for card, to in payment)


def decode_payment(text: str) -> Payment:
    """The inverse of ``encode_payment``; ``ValueError`` for anything it never writes."""
    if PAYMENT_RE.fullmatch(text) is None:
        raise ValueError("not a payment")
    picks = []
    for part in text.split("."):
        card, _, to = part.partition("g")
        picks.append((card, int(to) - 1 if to else None))
    return tuple(picks)


def token_of(notation: str) -> str:
    return notation.replace(" ", "_")


def notation_of(token: str) -> str:
    if TOKEN_RE.fullmatch(token) is None:
        raise ValueError("not a step")
    return token.replace("_", " ")


# -- what the engine says (its public functions, or apply on a copy) -----------------------------------
@dataclass(slots=True)
class Plan:
    """A camp worked out on a copy of the state: the notations that play it, the position after the payment
    (for the preview), the reward choices left to the player, and the route the engine reports."""

    notations: list[str]
    state: DewanState
    rewards: list[Action]
    route: list[str]



def destinations(game: DewanGame, state: DewanState, seat: int) -> list[str]:
    """The spaces a camp can go to now (the engine's ``camp`` actions)."""
    return [a[1] for a in game.legal_actions(state, seat) if a[0] == "camp"]


def payments(game: DewanGame, state: DewanState, seat: int, hex_: str,
             limit: int = SELECT_ROWS * OPTIONS) -> list[tuple[Payment, list[str]]]:
    """The cheapest ``limit`` payments of a camp on ``hex_`` (as many as the panel shows), each with a route
    it pays."""
    return [(payment_of(discards, gives), route)
            for discards, gives, route in game.payments(state, seat, hex_, limit=limit)]


def plan_camp(game: DewanGame, state: DewanState, seat: int, hex_: str, payment: Payment) -> Plan:
    """Play ``camp hex_`` and the payment's cards on a copy; the engine's forced picks are left to it.
    ``ValueError`` (or ``IllegalAction``) if the engine does not place exactly that camp with exactly that
    payment."""
    work = game.from_json(game.to_json(state))
    notations = [f"camp {hex_}"]
    events = game.apply(work, seat, ("camp", hex_))
    for card, to in payment:
        if any(e.code == "camp" for e in events):
            break  # placed: the engine played the last cards itself (forced picks)
        if [card, to] in game.view(work, seat).get("picks", []):
            continue  # a forced pick: the engine made it already
        action: Action = ("pay", card) if to is None else ("give", card, to)
        events += game.apply(work, seat, action)
        notations.append(game.format(action))
    camp = next((e for e in events if e.code == "camp"), None)
    if camp is None or camp.params["hex"] != hex_:
        raise ValueError("the camp was not placed")
    paid = payment_of(str(camp.params["cards"]).split(),
                      [(e.params["to_seat"], str(e.params["cards"]).split()) for e in events if e.code == "cards_given"])
    if paid != tuple(sorted(payment, key=lambda pick: pick[0])):
        raise ValueError("the engine took another payment")
    view = game.view(work, seat)
    rewards = game.legal_actions(work, seat) if view["actor"] == seat and view["phase"] in ("story", "tuck") else []
    return Plan(notations, work, rewards, str(camp.params["route"]).split("-"))


# -- the turn in words --------------------------------------------------------------------------------
def event_line(event: Event, names: Sequence[str], locale: str) -> str | None:
    """One event in words for the board (cards by their terrains, never by number), or ``None``."""
    p = event.params
    code = event.code
    player = names[p["seat"]] if isinstance(p.get("seat"), int) and 0 <= p["seat"] < len(names) else "?"
    if code == "final_score":
        return None  # the final embed has the score pad
    if code == "dewan":
        return tr(locale, "say.dewan", player=player)
    if code == "took":
        cards = str(p["cards"]).split()
        return tr(locale, "say.took", player=player, cards=cards_text(cards, locale),
                  count=plural(locale, "card", len(cards)))
    if code == "story_completed":
        return tr(locale, "say.story_completed", player=player, tile=p["tile"],
                  points=plural(locale, "point", int(p["points"])))
    if code == "cards_drawn":
        return tr(locale, "say.cards_drawn", player=player, cards=plural(locale, "card", int(p["count"])))
    if code == "camp":
        key = "say.camp_paid" if p.get("cards") else "say.camp"
        return tr(locale, key, player=player, slot=p["slot"], hex=p["hex"], route=str(p["route"]).replace("-", "–"),
                  cards=cards_text(str(p.get("cards") or "").split(), locale))
    if code == "cards_given":
        return tr(locale, "say.cards_given", player=player, to=names[p["to_seat"]],
                  cards=cards_text(str(p["cards"]).split(), locale))
    if code == "tucked":
        return tr(locale, "say.tucked", player=player, card=card_text(str(p["card"]), locale))
    if code in ("story_taken", "story_drawn"):
        return tr(locale, f"say.{code}", player=player, tile=story_text(str(p["tile"]), locale))
    params = {k: seat_label(names, k, v) for k, v in p.items()}
    text = tr(locale, f"event.{code}", **params)
    return None if text == f"{KEY}.event.{code}" else text



def narrate(events: Sequence[tuple[int, Event]], names: Sequence[str], locale: str) -> list[str]:
    """The turn's events in words (the final score is left to the score pad)."""
    return [line for _seat, event in events if (line := event_line(event, names, locale))]


# -- the panel's texts ----------------------------------------------------------------------------------
def header(game: DewanGame, state: DewanState, seat: int, locale: str) -> list[str]:
    """The panel's first lines: the round, the mover's hand (by number: their eyes only), the camps left."""
    view = game.view(state, seat)
    player = view["seats"][seat]
    hand = ", ".join(own_card(c, locale) for c in view.get("hand", [])) or "-"
    reward = player["next_reward"]
    lines = [tr(locale, "panel.title", round=view["round"]),
             tr(locale, "panel.hand", count=len(view.get("hand", [])), cards=hand)]
    if reward:
        lines.append(tr(locale, "panel.camps", count=player["camps_left"],
                        reward=tr(locale, f"panel.reward_{reward}")))
    return lines


def step_lines(game: DewanGame, state: DewanState, seat: int, locale: str) -> list[str]:
    """The panel's first screen: the header and the question of the current step."""
    view = game.view(state, None)
    lines = header(game, state, seat, locale)
    if view["phase"] == "turn":
        camps = any(a[0] == "camp" for a in game.legal_actions(state, seat))
        lines.append(tr(locale, "panel.turn" if camps else "panel.turn_take"))
    else:
        lines.append(tr(locale, f"panel.{view['phase']}", hex=view.get("pending_hex") or ""))
    return lines


def destination_options(game: DewanGame, state: DewanState, seat: int, locale: str) -> list[tuple[str, str]]:
    """The camp's spaces as (label, space): ``C6 (forest)``."""
    terrain = {label: kind for label, _q, _r, kind in game.view(state, None)["map"]["hexes"]}
    return [(tr(locale, "label.destination", hex=h, terrain=tr(locale, f"term.{terrain[h]}")), h)
            for h in destinations(game, state, seat)]


def payment_lines(game: DewanGame, state: DewanState, seat: int, hex_: str, count: int, locale: str) -> list[str]:
    """The payment screen's text: how many payments a camp on ``hex_`` has (perhaps more than shown)."""
    lines = [*header(game, state, seat, locale), tr(locale, "panel.payment", hex=hex_, count=count)]
    if count >= SELECT_ROWS * OPTIONS:  # perhaps more: the engine stops at what the panel shows
        lines.append(tr(locale, "panel.more_payments"))
    return lines


def payment_options(found: Sequence[tuple[Payment, list[str]]], names: Sequence[str],
                    locale: str) -> tuple[list[tuple[str, str]], list[str]]:
    """The payments as (label, encoded payment), and each one's route."""
    options = [(payment_text(payment, names, locale), encode_payment(payment)) for payment, _ in found]
    routes = [tr(locale, "panel.route", route="–".join(route)) for _, route in found]
    return options, routes


def confirm_lines(game: DewanGame, state: DewanState, seat: int, hex_: str, payment: Payment, plan: Plan,
                  names: Sequence[str], locale: str) -> list[str]:
    """The confirm screen's text: the camp, its route and payment, and the reward to choose if any."""
    terrain = {label: kind for label, _q, _r, kind in game.view(state, None)["map"]["hexes"]}
    lines = [*header(game, state, seat, locale),
             tr(locale, "panel.confirm", hex=hex_, terrain=tr(locale, f"term.{terrain[hex_]}"),
                route="–".join(plan.route), payment=payment_text(payment, names, locale))]
    if plan.rewards:
        lines.append(tr(locale, f"panel.confirm_{plan.rewards[0][0]}"))
    return lines


def reward_options(game: DewanGame, plan: Plan, names: Sequence[str], locale: str) -> list[tuple[str, str]]:
    """The confirm buttons carrying a reward: (``Confirm · story t07``, token)."""
    row = game.view(plan.state, None)["row"]
    return [(tr(locale, "panel.confirm_with", choice=action_label(a, names, row, locale)),
             token_of(game.format(a))) for a in plan.rewards]


def score_pad(game: DewanGame, state: DewanState, names: Sequence[str],
              locale: str) -> tuple[str, list[tuple[str, str]], str]:
    """The score pad: its title, a (name, breakdown) row per player best first, and its footer."""
    result = game.result(state)
    hands = {s["seat"]: s["hand_count"] for s in game.view(state, None)["seats"]}
    rows = []
    for player in result.ranking[:25]:
        name = tr(locale, "final.player", rank=player.rank, player=names[player.seat],
                  score=plural(locale, "point", player.score))
        if player.eliminated:
            name += tr(locale, "final.out")
        rows.append((name, tr(locale, "final.breakdown", hand=hands.get(player.seat, 0), **player.breakdown)))
    return tr(locale, "final.title"), rows, tr(locale, "final.footer")


# -- the turn flow -----------------------------------------------------------------------------------
TELLS_STEPS = True  # steps typed one by one (/dewan camp, /dewan choose) are told together on the turn's board


def _names(state: DewanState) -> list[str]:
    """The players where ``flow`` has no names (a card given "to player 2"): their seat numbers."""
    return [f"#{i + 1}" for i in range(state.players)]


def preview(view: dict[str, Any], locale: str) -> Callable[[Sequence[str]], bytes]:
    """The confirm step's picture: the mover's own view after the planned camp, drawn with the names."""
    def draw(names: Sequence[str]) -> bytes:
        from rendering.dewan import render_board  # drawn off the event loop, when the step is shown

        return render_board(view, list(names), locale)
    return draw


def flow(state: DewanState, seat: int, chosen: tuple[str, ...], locale: str) -> core.Step | core.Done:
    """The panel's turn: a take, a pass or a pending step (keys: their tokens) is ``Done`` at once; a camp
    (key: its space, lower case) asks the payment when there is a choice (keys: their index), then shows the
    preview with Confirm (key ``ok``), or one Confirm per reward when the emptied slot offers a choice (keys:
    their tokens), and is ``Done`` with the whole camp."""
    game = GAME
    view = game.view(state, None)
    if view["actor"] != seat:
        return core.Step(tr(locale, "panel.done"), ())
    names = _names(state)
    actions = game.legal_actions(state, seat)
    if not chosen:
        steps = [a for a in actions if a[0] != "camp"]
        labels = [core.Choice(token_of(game.format(a)), action_label(a, names, view["row"], locale),
                              (game.format(a),), "secondary" if a[0] == "pass" else "success",
                              group="take" if view["phase"] == "turn" else "") for a in steps]
        camps = [core.Choice(hex_.lower(), label, (f"camp {hex_}",), "primary", group="camp")
                 for label, hex_ in destination_options(game, state, seat, locale)]
        return core.Step("\n".join(step_lines(game, state, seat, locale)), (*labels, *camps),
                         placeholder=tr(locale, "panel.choose"),
                         placeholders=(("camp", tr(locale, "panel.choose_destination")),))
    first = chosen[0]
    step = next((a for a in actions if a[0] != "camp" and token_of(game.format(a)) == first), None)
    if step is not None:
        if len(chosen) > 1:
            raise ValueError("a step is one answer")
        return core.Done((game.format(step),), action_label(step, names, view["row"], locale))
    hex_ = first.upper()
    if HEX_RE.fullmatch(hex_) is None or hex_ not in destinations(game, state, seat):
        raise ValueError("not a destination")
    found = payments(game, state, seat, hex_)
    rest: tuple[str, ...] = chosen[1:]
    if len(found) == 1:
        payment = found[0][0]
    elif not rest:
        options, routes = payment_options(found, names, locale)
        return core.Step("\n".join(payment_lines(game, state, seat, hex_, len(found), locale)),
                         tuple(core.Choice(str(i), label, description=route)
                               for i, ((label, _token), route) in enumerate(zip(options, routes, strict=True))),
                         can_undo=True, placeholder=tr(locale, "panel.choose_payment"))
    else:
        payment, rest = found[int(rest[0])][0], rest[1:]
    plan = plan_camp(game, state, seat, hex_, payment)
    summary = tr(locale, "label.camp", hex=hex_)
    confirmed = next(iter(rest), None)
    if confirmed is not None:
        if len(rest) > 1 or confirmed not in ({"ok"} if not plan.rewards else
                                              {token_of(game.format(a)) for a in plan.rewards}):
            raise ValueError("not a confirmation")
        return core.Done((*plan.notations, *((notation_of(confirmed),) if plan.rewards else ())), summary)
    if plan.rewards:
        confirms = tuple(core.Choice(token, label, (*plan.notations, notation_of(token)), "primary")
                         for label, token in reward_options(game, plan, names, locale))
    else:
        confirms = (core.Choice("ok", tr(locale, "panel.confirm_button"), tuple(plan.notations), "primary"),)
    return core.Step("\n".join(confirm_lines(game, state, seat, hex_, payment, plan, names, locale)), confirms,
                     can_undo=True, placeholder=tr(locale, "panel.confirm_choose"),
                     picture=preview(game.view(plan.state, seat), locale))


def reword(error: IllegalAction, locale: str) -> IllegalAction:
    """``wrong_step`` names the step in words (the engine's code is its phase)."""
    if error.code == "wrong_step":
        return IllegalAction(error.code, **dict(error.params, step=tr(locale, f"step.{error.params.get('step')}")))
    return error


def final_at(state: DewanState, names: Sequence[str], locale: str) -> core.Final:
    """The score pad under the last board (it reads the position: the cards left in hand break ties)."""
    title, rows, footer = score_pad(GAME, state, names, locale)
    return core.Final(title, tuple(rows), footer=footer, inline=False)
