"""Maple Valley content: the valley, grove tokens, sun tiles, dawdle cards, festivities, clearings,
friends, favors and patches (see ``docs/games/maple.md`` for where each piece comes from and why).

Codes: goods ``a`` acorn, ``b`` berry, ``t`` birch twig, ``c`` cattail, ``l`` clay, ``h`` herb,
``y`` honey; curiosities ``fl`` flower, ``pe`` pebble, ``bu`` bug; path types ``M`` mountain/stone,
``F`` forest/wood, ``W`` water; favor symbols Treat, Decor, Music, Game, Craft, Story.
"""

from __future__ import annotations

from typing import NamedTuple

GOODS: tuple[str, ...] = ("a", "b", "t", "c", "l", "h", "y")
CURIOS: tuple[str, ...] = ("fl", "pe", "bu")
PATH_TYPES: tuple[str, ...] = ("M", "F", "W")
SYMBOLS: tuple[str, ...] = ("Treat", "Decor", "Music", "Game", "Craft", "Story")
SUPPLY_PER_KIND = 18  # goods and curiosities, each kind
MAP_TOKENS = 20
CUBES = 20
HOURS = 5
DISPLAY = 4  # face-up cards in each row (favors, friends, patches)

# -- the valley -----------------------------------------------------------------------------------
LOCATIONS: dict[str, tuple[str, tuple[int, int]]] = {  # code -> (kind, grid x, y)
    "V": ("village", (4, 4)),
    "GM1": ("grove", (1, 2)), "GM2": ("grove", (6, 1)),
    "GO1": ("grove", (1, 5)), "GO2": ("grove", (9, 4)),
    "GB1": ("grove", (3, 0)), "GB2": ("grove", (7, 6)),
    "T": ("tower", (4, 2)),
    "C": ("club", (6, 4)),
    "K": ("cottage", (4, 6)),
    "L": ("cliff", (8, 2)),
    "X1": ("clearing", (3, 7)), "X2": ("clearing", (9, 0)),
}
GROVES: tuple[str, ...] = ("GM1", "GM2", "GO1", "GO2", "GB1", "GB2")
CLEARING_SPOTS: tuple[str, ...] = ("X1", "X2")


class Path(NamedTuple):
    number: int
    a: str
    b: str
    type: str
    spot: bool  # a curiosity spot (★)


PATHS: dict[int, Path] = {
    p.number: p
    for p in (
        Path(1, "V", "GM1", "F", False), Path(2, "V", "GO1", "W", False), Path(3, "V", "T", "M", False),
        Path(4, "V", "C", "F", True), Path(5, "V", "K", "W", False), Path(6, "GM1", "GO1", "M", False),
        Path(7, "GM1", "GB1", "F", True), Path(8, "GO1", "K", "F", False), Path(9, "GO1", "X1", "W", True),
        Path(10, "K", "X1", "M", False), Path(11, "T", "GM2", "M", False), Path(12, "T", "L", "M", True),
        Path(13, "GM2", "L", "F", False), Path(14, "GM2", "GB1", "W", False), Path(15, "GB1", "X2", "M", False),
        Path(16, "X2", "L", "W", False), Path(17, "C", "GB2", "W", False), Path(18, "GB2", "GO2", "M", True),
        Path(19, "GO2", "X2", "F", False), Path(20, "C", "GO2", "F", False), Path(21, "GB2", "K", "F", False),
        Path(22, "T", "GM1", "W", False), Path(23, "X1", "GB2", "W", True), Path(24, "GO2", "L", "M", False),
    )
}
SPOT_PATHS: tuple[int, ...] = tuple(n for n, p in PATHS.items() if p.spot)
SPOT_TOKENS: tuple[str, ...] = ("fl", "fl", "pe", "pe", "bu", "bu")
# location -> [(path number, other end)] in path order
ADJACENT: dict[str, list[tuple[int, str]]] = {loc: [] for loc in LOCATIONS}
for _p in PATHS.values():
    ADJACENT[_p.a].append((_p.number, _p.b))
    ADJACENT[_p.b].append((_p.number, _p.a))

# -- grove tokens, sun tiles, dawdle cards --------------------------------------------------------
GROVE_TOKENS: tuple[tuple[str, str], ...] = (
    ("a", "b"), ("a", "c"), ("a", "t"), ("a", "h"), ("b", "c"), ("b", "l"), ("b", "y"), ("b", "h"),
    ("c", "l"), ("c", "y"), ("c", "t"), ("t", "l"), ("h", "y"),
)
SUN_TILES: tuple[str, ...] = GOODS  # one per goods kind; five are used in a game

DAWDLE_KINDS: tuple[str, ...] = ("stroll", "hunt", "map", "forage")
DAWDLE_NAMES = {"stroll": "Sunny Stroll", "hunt": "Treasure Hunt", "map": "Map Reading", "forage": "Foraging"}
DAWDLE_PER_KIND = 5

# -- festivities ----------------------------------------------------------------------------------
T, D, MU, G, CR, S = SYMBOLS


class Festivity(NamedTuple):
    code: str
    name: str
    spaces: tuple[str, ...]
    reward: str  # vp3 | curio_map | goods2 | map2 | favor_curio | vp4


FESTIVITIES: dict[str, Festivity] = {
    f.code: f
    for f in (
        Festivity("spring", "Spring Feast", (T, D, T, G, T, D), "vp3"),
        Festivity("lantern", "Lantern Walk", (D, MU, D, CR, D, MU), "curio_map"),
        Festivity("maypole", "Maypole Dance", (MU, G, MU, S, MU, G), "goods2"),
        Festivity("games", "Games Meadow", (G, CR, G, T, G, CR), "map2"),
        Festivity("craft", "Craft Fair", (CR, S, CR, D, CR, S), "vp3"),
        Festivity("story", "Story Circle", (S, T, S, MU, S, T), "favor_curio"),
        Festivity("sunset", "Sunset Bonfire", (T, D, MU, G, CR, S), "vp4"),
    )
}
BLOCKED_SPACES: dict[int, tuple[int, ...]] = {2: (4, 5), 3: (5,), 4: (), 5: ()}  # 0-based space indexes
FEAST = Festivity("feast", "Great Feast", SYMBOLS, "feast")  # solo only
FEAST_PER_CUBE = 2
FEAST_FULL_BONUS = 4

# -- clearings ------------------------------------------------------------------------------------


class Clearing(NamedTuple):
    code: str
    name: str
    uses: int  # how many exchanges the card allows (Beaver adds one)


CLEARINGS: dict[str, Clearing] = {
    c.code: c
    for c in (
        Clearing("trading", "Trading Post", 3),  # +1 map token; 1 goods -> 1 goods of another kind
        Clearing("honey", "Honey Tree", 1),  # +1 honey; 2 goods -> 1 honey
        Clearing("mill", "Old Mill", 2),  # +1 sun goods; 2 goods -> 1 curiosity of your choice
        Clearing("lookout", "Lookout Rock", 1),  # +1 map token; 1 curiosity -> 2 map tokens
        Clearing("pond", "Mossy Pond", 1),  # +1 cattail +1 clay; 1 curiosity -> 2 goods of your choice
        Clearing("well", "Wishing Well", 2),  # +1 favor from the deck; 1 curiosity -> 1 of another kind
    )
}

# -- friends --------------------------------------------------------------------------------------


class Friend(NamedTuple):
    id: str
    name: str
    paths: tuple[str, ...]
    cost: tuple[str, ...]
    vp: int
    ability: str  # a short English summary; the engine keys the effect on ``id``


def _friend(fid: str, name: str, paths: str, cost: str, ability: str) -> Friend:
    types = tuple(paths.split())
    vp = 0 if fid.startswith("s") else {1: 3, 2: 2, 3: 1}[len(types)]
    price: list[str] = []
    for part in cost.split():
        count = int(part[0]) if part[0].isdigit() else 1
        price += [part.lstrip("0123456789")] * count
    return Friend(fid, name, types, tuple(price), vp, ability)


FRIENDS: dict[str, Friend] = {
    f.id: f
    for f in (
        _friend("s1", "Bunny", "M F", "", "Play: +1 goods of the sun type"),
        _friend("s2", "Chick", "F W", "", "Play: +1 map token"),
        _friend("s3", "Kit", "M W", "", "Play: +1 curiosity of your choice"),
        _friend("s4", "Cub", "M F", "", "Craft: one favor costs 1 goods fewer (at least 1 paid)"),
        _friend("s5", "Pup", "F W", "", "Craft: after crafting a favor, +1 goods of your choice"),
        _friend("f01", "Marmot", "M", "fl pe", "Cliff: +1 sun goods (4 instead of 3)"),
        _friend("f02", "Pika", "M", "pe bu", "Tower: +1 map token"),
        _friend("f03", "Chipmunk", "M", "bu fl", "Grove: +1 of one goods on its token"),
        _friend("f04", "Mole", "M", "fl pe", "Walk: may start from the Village"),
        _friend("f05", "Fox", "F", "pe bu", "Walk: each curiosity spot gives 2"),
        _friend("f06", "Badger", "F", "bu fl", "Craft: once, pay any 1 goods in place of one required"),
        _friend("f07", "Hedgehog", "F", "fl pe", "Village: the friend costs 1 curiosity fewer (min 1)"),
        _friend("f08", "Rabbit", "F", "pe bu", "Play: exchange up to 2 goods 1:1"),
        _friend("f09", "Otter", "W", "bu fl", "Walk: 1 extra path of any type without a map token"),
        _friend("f10", "Beaver", "W", "fl pe", "Clearing: its exchange once more"),
        _friend("f11", "Heron", "W", "pe bu", "Cottage: +1 favor from the deck, then discard 1 favor"),
        _friend("f12", "Duck", "W", "bu fl", "Play: +1 honey"),
        _friend("f13", "Squirrel", "M F", "fl pe bu", "Grove: +1 curiosity of your choice"),
        _friend("f14", "Raccoon", "M F", "fl pe bu", "Play: take 1 favor from the display"),
        _friend("f15", "Porcupine", "M F", "fl pe bu", "End: +1 per patch (max +4)"),
        _friend("f16", "Mouse", "M F", "fl pe bu", "Walk: ending by another critter, +1 curiosity"),
        _friend("f17", "Skunk", "M F", "fl pe bu", "Club: +1 goods of your choice"),
        _friend("f18", "Bear Cub", "M F", "fl pe bu", "Craft: after 2 favors, +1 curiosity and +1 map token"),
        _friend("f19", "Moose", "M W", "fl pe bu", "Play: swap 1 curiosity for another kind, up to twice"),
        _friend("f20", "Lynx", "M W", "fl pe bu", "Club: the patch from the display or the deck's top 3"),
        _friend("f21", "Goose", "M W", "fl pe bu", "Grove or clearing: +1 map token"),
        _friend("f22", "Mink", "M W", "fl pe bu", "Craft: once, pay 1 curiosity in place of 1 goods"),
        _friend("f23", "Salamander", "M W", "fl pe bu", "Walk: each map token walks 2 paths"),
        _friend("f24", "Loon", "M W", "fl pe bu", "End: +1 per festivity holding your cube"),
        _friend("f25", "Frog", "F W", "fl pe bu", "Walk: 3 or more paths, +1 goods of your choice"),
        _friend("f26", "Turtle", "F W", "fl pe bu", "Play: +2 goods of your choice; no map tokens this turn"),
        _friend("f27", "Dragonfly", "F W", "fl pe bu", "Craft: one favor's cube on any free festivity space"),
        _friend("f28", "Snail", "F W", "fl pe bu", "End: +1 per 2 other friends"),
        _friend("f29", "Wren", "F W", "fl pe bu", "Craft: after crafting a favor, take 1 favor from the display"),
        _friend("f30", "Woodpecker", "F W", "fl pe bu", "Tower: +1 favor"),
        _friend("f31", "Owl", "M F W", "2fl pe bu", "Walk: switch the main path type once"),
        _friend("f32", "Vole", "M F W", "fl 2pe bu", "Village: may buy a second friend"),
        _friend("f33", "Bat", "M F W", "fl pe 2bu", "Cliff: may stay; moving to the Village activates it"),
        _friend("f34", "Robin", "M F W", "2fl pe bu", "Play: +1 goods of your choice and +1 map token"),
        _friend("f35", "Weasel", "M F W", "fl 2pe bu", "End: +3 for the most crafted favors"),
        _friend("f36", "Toad", "M F W", "fl pe 2bu", "End: +2 per flower + pebble + bug set held"),
    )
}
STARTERS: tuple[str, ...] = ("s1", "s2", "s3", "s4", "s5")
DECK_FRIENDS: tuple[str, ...] = tuple(f for f in FRIENDS if f.startswith("f"))

# -- favors ---------------------------------------------------------------------------------------


class Favor(NamedTuple):
    id: str
    name: str
    symbol: str
    cost: tuple[str, ...]
    vp: int
    bonus: str  # "S" same symbol, "P" partner, "V" variety, "" none
    partner: str  # for "P"


_FAVOR_TABLE = {
    "tr": (T, "Acorn Muffins:a b|Honey Tea:h y|Herb Crackers:a h|Berry Tart:b y|Trail Mix:a b h|"
              "Berry Jam:b h y|Seed Cookies:a h y|Maple Fudge:a b y|Picnic Basket:a b h y|Berry Pie:2b h y|"
              "Festival Pie:2a b h y|Grand Cake:a b 2h y"),
    "de": (D, "Reed Wreath:t c|Clay Beads:b l|Flower Garland:b t|Clay Lanterns:c l|Berry Bunting:b t c|"
              "Paper Streamers:b c l|Bark Banner:b t l|Reed Mobile:t c l|Painted Stones:b t c l|"
              "Leaf Canopy:b 2c l|Festival Arch:b 2t c l|Grand Maypole:2b t c l"),
    "mu": (MU, "Reed Whistle:t c|Honey Hum:a y|Twig Drum:a t|Cattail Flute:c y|Stick Rattle:a t c|"
               "Acorn Maracas:a c y|Bark Fiddle:a t y|Pan Pipes:t c y|Wind Chimes:a t c y|Choir Book:a 2c y|"
               "Dance Floor:a 2t c y|Band Stand:2a t c y"),
    "ga": (G, "Acorn Marbles:a l|Bark Kite:t h|Acorn Toss:a h|Clay Dice:t l|Treasure Hunt:a l h|"
              "Stick Puzzle:t l h|Ring Toss:a t h|Sack Race:a t l|Tug Rope:a t l h|Leaf Boats:t 2l h|"
              "Obstacle Course:2a t l h|Prize Table:a t l 2h"),
    "cr": (CR, "Clay Cup:c l|Acorn Caps:a b|Clay Bowl:a l|Woven Mat:b c|Reed Hat:a c l|Berry Dye:a b c|"
               "Pottery Set:a b l|Rush Basket:b c l|Quilt Square:a b c l|Rush Rug:a b 2c|Carved Bench:a b c 2l|"
               "Festival Loom:2a b c l"),
    "st": (S, "Picture Book:b h|Honey Tales:c y|Herb Almanac:c h|Berry Ink:b y|Riddle Scroll:b c h|"
              "Song Sheet:b c y|Reed Puppet:c h y|Shadow Play:b h y|Map of the Valley:b c h y|Storybook:2b c y|"
              "Puppet Stage:b c 2h y|Legend Tapestry:b 2c h y"),
}
# Per symbol, by position 1..12: VP and bonus (4 small S, 4 medium P, large V and flat, grand V and flat).
_FAVOR_SHAPE = ((2, "S"),) * 4 + ((4, "P"),) * 4 + ((6, "V"), (7, ""), (8, "V"), (10, ""))


def _favors() -> dict[str, Favor]:
    out: dict[str, Favor] = {}
    for prefix, (symbol, text) in _FAVOR_TABLE.items():
        for index, entry in enumerate(text.split("|")):
            name, _, cost_text = entry.partition(":")
            cost: list[str] = []
            for part in cost_text.split():
                cost += [part[-1]] * (int(part[:-1]) if len(part) > 1 else 1)
            vp, bonus = _FAVOR_SHAPE[index]
            fid = f"{prefix}{index + 1:02d}"
            partner = f"{prefix}{index - 3:02d}" if bonus == "P" else ""
            out[fid] = Favor(fid, name, symbol, tuple(sorted(cost, key=GOODS.index)), vp, bonus, partner)
    return out


FAVORS: dict[str, Favor] = _favors()
S_BONUS_CAP = 3
P_BONUS = 2

# -- patches --------------------------------------------------------------------------------------


class Patch(NamedTuple):
    id: str
    name: str
    kind: str  # hour | always | now | end | badge
    vp: int
    text: str


_PATCH_ROWS = (
    ("Trailblazer", "hour", 1, "walk 1 extra path of any type without a map token"),
    ("Trader", "hour", 1, "exchange 1 goods for 1 goods of your choice"),
    ("Forager", "hour", 1, "at a grove, +1 goods of the sun type"),
    ("Quick Study", "hour", 1, "at the end of your turn, take 1 favor from the display"),
    ("Shortcut", "hour", 1, "your walk may end where the turn began"),
    ("Tinkerer", "hour", 1, "craft 1 favor paying 1 goods fewer (at least 1 paid)"),
    ("Second Wind", "hour", 1, "after your location effect, +1 map token"),
    ("Early Start", "hour", 1, "at the start of your turn, +1 goods of the sun type"),
    ("Festival Helper", "hour", 1, "one crafted favor's cube may go on any free festivity space"),
    ("Sunny Stroll", "hour", 1, "playing a dawdle card, +1 goods of the sun type"),
    ("Barterer", "hour", 1, "exchange 1 curiosity for 2 goods of your choice"),
    ("Swimmer", "always", 1, "playing a Forest friend, Water paths count as Forest"),
    ("Climber", "always", 1, "playing a Water friend, Mountain paths count as Water"),
    ("Ranger", "always", 1, "playing a Mountain friend, Forest paths count as Mountain"),
    ("Hiker", "always", 1, "a friend with 2 or more types may use two of them in one main walk"),
    ("Lookout", "always", 2, "the Tower gives +1 map token"),
    ("Cliff Diver", "always", 1, "the Cliff gives +1 sun goods"),
    ("Villager", "always", 1, "friends cost 1 curiosity fewer (min 1)"),
    ("Cottage Regular", "always", 2, "the Cottage also gives 1 favor from the deck, then discard 1 favor"),
    ("Dawdler", "always", 2, "each dawdle card also gives 1 goods of your choice"),
    ("Helper", "always", 2, "when another player fills a festivity holding your cube, +1 goods of your choice"),
    ("Collector's Eye", "always", 1, "each curiosity spot gives +1"),
    ("Sun Seeker", "always", 1, "the +1 sun bonus also at the Cliff, clearings and dawdle cards"),
    ("Map Maker", "now", 1, "+2 map tokens"),
    ("Beekeeper", "now", 1, "+2 honey"),
    ("Festive", "now", 1, "put 1 cube on any free festivity space"),
    ("Treasure Box", "now", 1, "+1 flower, +1 pebble, +1 bug"),
    ("Gift Wrap", "now", 1, "take 2 favors from the deck"),
    ("Chef", "end", 0, "+2 per crafted Treat favor"),
    ("Decorator", "end", 0, "+2 per crafted Decor favor"),
    ("Musician", "end", 0, "+2 per crafted Music favor"),
    ("Gamer", "end", 0, "+2 per crafted Game favor"),
    ("Artisan", "end", 0, "+2 per crafted Craft favor"),
    ("Storyteller", "end", 0, "+2 per crafted Story favor"),
    ("Map Hoarder", "end", 0, "+1 per map token left"),
    ("Honey Lover", "end", 0, "+1 per honey left"),
    ("Sociable", "end", 0, "+1 per friend you own"),
    ("Festival Spirit", "end", 0, "+2 per festivity holding your cube"),
    ("Star Badge", "badge", 4, ""),
    ("Acorn Badge", "badge", 3, ""),
)
PATCHES: dict[str, Patch] = {
    f"p{i + 1:02d}": Patch(f"p{i + 1:02d}", name, kind, vp, text) for i, (name, kind, vp, text) in enumerate(_PATCH_ROWS)
}
SYMBOL_PATCHES: dict[str, str] = {f"p{29 + i}": symbol for i, symbol in enumerate(SYMBOLS)}

# -- solo rating ----------------------------------------------------------------------------------
SOLO_RATINGS: tuple[tuple[int, str], ...] = (
    (100, "legendary"), (85, "wonderful"), (70, "merry"), (55, "pleasant"), (0, "quiet"),
)
SOLO_WIN = 70
