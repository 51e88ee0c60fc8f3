"""A stand-in for ``games.trails.tiles`` while the engine is not in the tree (same API).

Tile data: the compact notation of the project's tile fact sheet (reference/trails_tiles.compact.txt,
from the JCloisterZone tile definitions), with goods wine/cloth renamed honey/flax as in the engine API.
"""

from __future__ import annotations

from dataclasses import dataclass

EDGE_N, EDGE_E, EDGE_S, EDGE_W = 0, 1, 2, 3
_EDGE = {"N": 0, "E": 1, "S": 2, "W": 3}
_HALF = {name: i for i, name in enumerate(("Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn"))}
_GOODS = {"wine": "honey", "grain": "grain", "cloth": "flax"}
_EXPANSION = {"BA": "base", "RI": "river", "IC": "inns", "TB": "traders"}


@dataclass(frozen=True)
class CitySegment:
    edges: tuple[int, ...]
    pennants: int = 0
    cathedral: bool = False
    goods: str | None = None


@dataclass(frozen=True)
class RoadSegment:
    edges: tuple[int, ...]
    inn: bool = False


@dataclass(frozen=True)
class FieldSegment:
    halves: tuple[int, ...]
    cities: tuple[int, ...]


@dataclass(frozen=True)
class TileType:
    id: str
    count: int
    expansion: str
    edges: str
    cities: tuple[CitySegment, ...]
    roads: tuple[RoadSegment, ...]
    rivers: tuple[tuple[int, ...], ...]
    fields: tuple[FieldSegment, ...]
    monastery: bool
    start: bool
    spring: bool
    lake: bool


COMPACT = """\
BA-A|2|FFRF||S||Nw.Ne.En.Es.Se.Sw.Ws.Wn|monastery
BA-B|4|FFFF||||Nw.Ne.En.Es.Se.Sw.Ws.Wn|monastery
BA-C|1|CCCC|NESW+||||
BA-D|4|CRFR|N|EW||En.Wn>0;Es.Se.Sw.Ws|start=1
BA-E|5|CFFF|N|||En.Es.Se.Sw.Ws.Wn>0|
BA-F|2|FCFC|EW+|||Nw.Ne>0;Se.Sw>0|
BA-G|1|FCFC|EW|||Nw.Ne>0;Se.Sw>0|
BA-H|3|CFCF|N;S|||En.Es.Ws.Wn>0,1|
BA-I|2|CFFC|N;W|||En.Es.Se.Sw>0,1|
BA-J|3|CRRF|N|ES||En.Sw.Ws.Wn>0;Es.Se|
BA-K|3|CFRR|N|SW||En.Es.Se.Wn>0;Sw.Ws|
BA-L|3|CRRR|N|E;S;W||En.Wn>0;Sw.Ws;Es.Se|
BA-M|2|CFFC|NW+|||En.Es.Se.Sw>0|
BA-N|3|CFFC|NW|||En.Es.Se.Sw>0|
BA-O|2|CRRC|NW+|ES||En.Sw>0;Es.Se|
BA-P|3|CRRC|NW|ES||En.Sw>0;Es.Se|
BA-Q|1|CCFC|NEW+|||Se.Sw>0|
BA-R|3|CCFC|NEW|||Se.Sw>0|
BA-S|2|CCRC|NEW+|S||Se>0;Sw>0|
BA-T|1|CCRC|NEW|S||Se>0;Sw>0|
BA-U|8|FRFR||EW||Nw.Ne.En.Wn;Es.Se.Sw.Ws|
BA-V|9|FFRR||SW||Nw.Ne.En.Es.Se.Wn;Sw.Ws|
BA-W|4|FRRR||E;S;W||Nw.Ne.En.Wn;Es.Se;Sw.Ws|
BA-X|1|RRRR||N;E;S;W||Nw.Wn;Ne.En;Es.Se;Sw.Ws|
RI-A|1|F~FF|||E|Nw.Ne.En.Es.Se.Sw.Ws.Wn|spring
RI-B|1|C~R~|N|S|EW|En>0;Wn>0;Es.Se;Sw.Ws|
RI-C|1|C~C~|N;S||EW|En.Wn>0;Es.Ws>1|
RI-D|2|F~F~|||EW|Nw.Ne.En.Wn;Es.Se.Sw.Ws|
RI-E|1|C~~C|NW||ES|En.Sw>0;Es.Se|
RI-G|2|FF~~|||SW|Nw.Ne.En.Es.Se.Wn;Sw.Ws|
RI-H|1|F~R~||S|EW|Nw.Ne.En.Wn;Es.Se;Sw.Ws|monastery
RI-I|1|RR~~||NE|SW|Nw.Es.Se.Wn;Ne.En;Sw.Ws|
RI-K|1|~R~R||EW|NS|Nw.Wn;Ne.En;Es.Se;Sw.Ws|
RI-L|1|FFF~|||W|Nw.Ne.En.Es.Se.Sw.Ws.Wn|lake
IC-01|2|CCCC|NESW*||||
IC-02|1|FRFR||W;E||Es.Se.Sw.Ws;Nw.Ne.En.Wn|monastery
IC-03|1|CCCC|N;W;E;S|||()>0,1,2,3|
IC-04|1|CCFC|N;W;E|||Se.Sw>0,1,2|
IC-05|1|CRCR|N;S|W;E||Es>1;Ws>1;En>0;Wn>0|
IC-06|1|CFCC|NW+;S|||En.Es>0,1|
IC-07|1|CFFF|N|||En.Es>0;Se.Sw.Ws.Wn>0|
IC-08|1|CFRF|N|S||Sw.Ws.Wn>0;En.Es.Se>0|
IC-09|1|CRFC|NW|E||En>0;Es.Se.Sw>0|
IC-10|1|RCRC|EW+|N;S||Nw>0;Ne>0;Se>0;Sw>0|
IC-11|1|CFRC|NW|S@||Sw>0;En.Es.Se>0|
IC-12|1|CFRR|N|SW@||Sw.Ws;En.Es.Se.Wn>0|
IC-13|1|CRRC|NW+|ES@||Es.Se;En.Sw>0|
IC-14|1|FRRR||E@;W;S||Nw.Ne.En.Wn;Sw.Ws;Es.Se|
IC-15|1|FRFR||EW@||Nw.Ne.En.Wn;Es.Se.Sw.Ws|
IC-16|1|FFRR||SW@||Nw.Ne.En.Es.Se.Wn;Sw.Ws|
IC-17|1|RRRR||NW;ES||Nw.Wn;Es.Se;Ne.En.Sw.Ws|
TB-01|1|CFFC|NW$grain|||En.Es.Se.Sw>0|
TB-02|1|CFFC|NW$wine|||En.Es.Se.Sw>0|
TB-03|1|FCCC|EW$cloth;S|||Nw.Ne>0;()>0,1|
TB-04|1|FCCC|EW$wine;S|||Nw.Ne>0;()>0,1|
TB-05|1|CCFC|NEW$grain|||Se.Sw>0|
TB-06|1|CCCC|NW$cloth;S;E|||()>0,1,2|
TB-07|1|CRRC|NW$cloth|S;E||Sw>0;Se>0;Es>0;En>0|
TB-08|1|CRRC|NW$wine|S;E||Sw>0;Es.Se>0;En>0|
TB-09|1|CRCC|NW$cloth;S|E||En>0;Es>0,1|
TB-10|1|CRCC|NW$grain;S|E||En>0;Es>0,1|
TB-11|1|CRFC|NW$cloth|E||En>0;Es.Se.Sw>0|
TB-12|1|CRFC|NW$wine|E||En>0;Es>0;Se.Sw>0|
TB-13|1|CCRC|NEW$wine|S||Sw>0;Se>0|
TB-14|1|CCCC|NW$wine;ES|||()>0,1|
TB-15|1|FCFC|EW$wine|||Nw.Ne>0;Se.Sw>0|
TB-16|1|CRFF|N|E||En>0;Es.Se.Sw.Ws.Wn>0|
TB-17|1|FCRC|EW$grain|S||Nw.Ne>0;Sw>0;Se>0|
TB-18|1|FCRC|EW$wine|S||Nw.Ne>0;Sw>0;Se>0|
TB-19|1|RCRC|EW$wine|N;S||Nw>0;Ne>0;Se>0;Sw>0|
TB-20|1|FRRR||E;S;W||Nw.Ne.En.Wn;Es.Se;Sw.Ws|monastery
TB-21|1|CFRC|NW$grain|S||Sw>0;En.Es.Se>0|
TB-22|1|CFRC|NW$grain|S||Sw>0;Se>0;En.Es>0|
TB-23|1|CFRR|N|W;S||Wn>0;Sw.Ws;En.Es.Se>0|
TB-24|1|RRRR||NS;EW||Nw.Wn;Ne.En;Es.Se;Sw.Ws|
"""


def _edges(text: str) -> tuple[int, ...]:
    return tuple(_EDGE[c] for c in text)


def _parse(line: str) -> TileType:
    tid, count, edges, cities, roads, rivers, fields, flags = line.split("|")
    city_segments = []
    for seg in filter(None, cities.split(";")):
        seg, _, goods = seg.partition("$")
        city_segments.append(
            CitySegment(_edges(seg.rstrip("+*")), seg.count("+"), "*" in seg, _GOODS[goods] if goods else None)
        )
    road_segments = tuple(RoadSegment(_edges(s.rstrip("@")), s.endswith("@")) for s in filter(None, roads.split(";")))
    field_segments = []
    for seg in filter(None, fields.split(";")):
        halves, _, adjacent = seg.partition(">")
        field_segments.append(
            FieldSegment(
                () if halves == "()" else tuple(_HALF[h] for h in halves.split(".")),
                tuple(int(i) for i in adjacent.split(",")) if adjacent else (),
            )
        )
    flag_set = set(flags.split(","))
    return TileType(
        tid, int(count), _EXPANSION[tid[:2]], edges, tuple(city_segments), road_segments,
        tuple(_edges(s) for s in filter(None, rivers.split(";"))), tuple(field_segments),
        "monastery" in flag_set, "start=1" in flag_set, "spring" in flag_set, "lake" in flag_set,
    )


TILE_TYPES: dict[str, TileType] = {t.id: t for t in map(_parse, COMPACT.split())}
