"""Build ``evaltools/scoring/data/abbreviations.json``: codes and short forms the matcher reads.

    python scripts/build_abbreviations.py [-o evaltools/scoring/data/abbreviations.json]

Sections (each ``short form -> what it stands for``, lower case):

- ``us_states``: the two-letter postal codes of the 50 US states and DC (USPS);
- ``us_states_ap``: the Associated Press's abbreviations of state names (``Mass`` ->
  ``massachusetts``), read only capitalised, with their period, after a comma and a
  capitalised word (a dateline's *Westwood, Mass.*): *Miss.*, *Wash.* and *Ill.* are words
  elsewhere;
- ``ca_provinces``: the two-letter postal codes of Canada's provinces and territories
  (Canada Post): a record's ``"state": "AB"`` where an overview says *Alberta*;
- ``countries``: ISO 3166-1 alpha-2 codes with their English short names, from the Unicode
  CLDR data that ``babel`` ships (Unicode licence, redistribution permitted), plus the
  alpha-3 codes in common use in data (USA, GBR, ...);
- ``units``: unit abbreviations and British spellings -> one key (``km`` -> ``kilometer``);
- ``months``: month short forms -> the month (read only when capitalised: ``Jan``, ``Sept``);
- ``informal``: short forms reviewers write and overviews spell out, read only in lower
  case (``sims`` -> ``simulator``, ``appt`` -> ``appointment``, ``bday`` -> ``birthday``; a
  capitalised *Sims* is a surname); WordNet already pairs ``vet``, ``fridge``, ``info`` and
  ``lab`` with their long forms (``matcher.paraphrases``);
- ``address``: USPS street-suffix and unit abbreviations -> the word (``Ste`` -> ``suite``,
  ``Ave`` -> ``avenue``, ``Tpke`` -> ``turnpike``): a business record writes ``Ste 104`` where
  an overview says *Suite 104*, and ``Mt`` is *Mount* (``Dr`` and ``Ct`` are left out:
  *Doctor*, Connecticut); and the one-letter USPS directionals (``N Lincoln Ave`` where an
  overview says *North Lincoln Avenue*). The countries' names are those of the babel that
  built the file: babel 2.19 names three territories (HM, SH, TF) at greater length, and
  those three entries were kept as they were when the address table grew.

The matcher (``evaltools/scoring/matcher.py``) reads the file once. Deterministic output.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

US_STATES = {
    "AL": "Alabama", "AK": "Alaska", "AZ": "Arizona", "AR": "Arkansas", "CA": "California",
    "CO": "Colorado", "CT": "Connecticut", "DE": "Delaware", "FL": "Florida", "GA": "Georgia",
    "HI": "Hawaii", "ID": "Idaho", "IL": "Illinois", "IN": "Indiana", "IA": "Iowa",
    "KS": "Kansas", "KY": "Kentucky", "LA": "Louisiana", "ME": "Maine", "MD": "Maryland",
    "MA": "Massachusetts", "MI": "Michigan", "MN": "Minnesota", "MS": "Mississippi",
    "MO": "Missouri", "MT": "Montana", "NE": "Nebraska", "NV": "Nevada",
    "NH": "New Hampshire", "NJ": "New Jersey", "NM": "New Mexico", "NY": "New York",
    "NC": "North Carolina", "ND": "North Dakota", "OH": "Ohio", "OK": "Oklahoma",
    "OR": "Oregon", "PA": "Pennsylvania", "RI": "Rhode Island", "SC": "South Carolina",
    "SD": "South Dakota", "TN": "Tennessee", "TX": "Texas", "UT": "Utah", "VT": "Vermont",
    "VA": "Virginia", "WA": "Washington", "WV": "West Virginia", "WI": "Wisconsin",
    "WY": "Wyoming", "DC": "District of Columbia",
}
#: The Associated Press's abbreviations of state names of more than one syllable and
#: five letters or more (AP Stylebook, "state names"; newswire datelines write "Westwood,
#: Mass."); the eight states AP never abbreviates and those of two words (N.J., written
#: with the initials the matcher already reads) are left out.
AP_STATES = {
    "Ala": "Alabama", "Ariz": "Arizona", "Ark": "Arkansas", "Calif": "California",
    "Colo": "Colorado", "Conn": "Connecticut", "Del": "Delaware", "Fla": "Florida",
    "Ga": "Georgia", "Ill": "Illinois", "Ind": "Indiana", "Kan": "Kansas", "Ky": "Kentucky",
    "La": "Louisiana", "Md": "Maryland", "Mass": "Massachusetts", "Mich": "Michigan",
    "Minn": "Minnesota", "Miss": "Mississippi", "Mo": "Missouri", "Mont": "Montana",
    "Neb": "Nebraska", "Nev": "Nevada", "Okla": "Oklahoma", "Ore": "Oregon",
    "Pa": "Pennsylvania", "Tenn": "Tennessee", "Vt": "Vermont", "Va": "Virginia",
    "Wash": "Washington", "Wis": "Wisconsin", "Wyo": "Wyoming",
}
CA_PROVINCES = {
    "AB": "Alberta", "BC": "British Columbia", "MB": "Manitoba", "NB": "New Brunswick",
    "NL": "Newfoundland and Labrador", "NS": "Nova Scotia", "NT": "Northwest Territories",
    "NU": "Nunavut", "ON": "Ontario", "PE": "Prince Edward Island", "QC": "Quebec",
    "SK": "Saskatchewan", "YT": "Yukon",
}
ALPHA3 = {
    "USA": "United States", "GBR": "United Kingdom", "DEU": "Germany", "FRA": "France",
    "ITA": "Italy", "ESP": "Spain", "CAN": "Canada", "AUS": "Australia", "JPN": "Japan",
    "CHN": "China", "IND": "India", "BRA": "Brazil", "MEX": "Mexico", "RUS": "Russia",
    "NLD": "Netherlands", "CHE": "Switzerland", "SWE": "Sweden", "NOR": "Norway",
    "DNK": "Denmark", "FIN": "Finland", "IRL": "Ireland", "PRT": "Portugal", "POL": "Poland",
    "AUT": "Austria", "BEL": "Belgium", "GRC": "Greece", "TUR": "Turkey", "ZAF": "South Africa",
    "ARG": "Argentina", "NZL": "New Zealand", "KOR": "South Korea", "UAE": "United Arab Emirates",
}
#: Also English names people use for these codes beside CLDR's short name.
EXTRA_NAMES = {"UK": "United Kingdom", "GB": "Britain", "US": "America"}
UNITS = {
    "km": "kilometer", "kms": "kilometer", "kilometre": "kilometer",
    "cm": "centimeter", "centimetre": "centimeter", "mm": "millimeter",
    "millimetre": "millimeter", "metre": "meter", "kg": "kilogram", "kgs": "kilogram",
    "lb": "pound", "lbs": "pound", "oz": "ounce", "ft": "foot", "feet": "foot",
    "mi": "mile", "hr": "hour", "hrs": "hour", "mins": "minute", "sec": "second",
    "secs": "second", "yr": "year", "yrs": "year", "ml": "milliliter",
    "millilitre": "milliliter", "litre": "liter", "gal": "gallon", "sq": "square",
    "kw": "kilowatt", "mw": "megawatt", "ghz": "gigahertz", "mhz": "megahertz",
}
MONTHS = {
    "Jan": "january", "Feb": "february", "Mar": "march", "Apr": "april", "Jun": "june",
    "Jul": "july", "Aug": "august", "Sep": "september", "Sept": "september",
    "Oct": "october", "Nov": "november", "Dec": "december",
}
#: Reviewers' short forms with one meaning in a review of a business (``app`` is left out:
#: an appetizer or an application; ``rec``: a recommendation or recreation; ``temp``).
INFORMAL = {
    "sim": "simulator", "sims": "simulator", "appt": "appointment", "appts": "appointment",
    "bday": "birthday", "fav": "favorite", "fave": "favorite", "favs": "favorite",
    "faves": "favorite", "favourite": "favorite", "ppl": "people", "mgr": "manager",
    "mani": "manicure", "pedi": "pedicure", "tix": "ticket", "convo": "conversation",
    "resto": "restaurant", "pic": "picture", "pics": "picture", "wk": "week", "wks": "week",
    "approx": "approximately", "veggies": "vegetable", "insta": "instagram",
    "cert": "certification", "recs": "recommendation",
    "hubby": "husband", "govt": "government", "lil": "little", "grandkid": "grandchild",
    "grandkids": "grandchild",
}

ADDRESS = {
    "st": "street", "ste": "suite", "ave": "avenue", "av": "avenue", "blvd": "boulevard",
    "rd": "road", "hwy": "highway", "pkwy": "parkway", "ln": "lane", "apt": "apartment",
    "bldg": "building", "tpke": "turnpike", "trl": "trail", "expy": "expressway",
    "fwy": "freeway", "cir": "circle", "sq": "square", "ter": "terrace", "plz": "plaza",
    "pl": "place", "hts": "heights", "xing": "crossing", "ctr": "center",
    # a place-name prefix (Mt Vernon Rd), read capitalised: MT stays Montana
    "mt": "mount",
    # USPS directionals, one letter only (NE, SE: Nebraska, Sweden's code)
    "n": "north", "s": "south", "e": "east", "w": "west",
}


def build() -> dict:
    from babel import Locale

    territories = Locale("en").territories
    countries = {code.lower(): name.lower() for code, name in sorted(territories.items())
                 if len(code) == 2 and code.isalpha() and code not in ("ZZ",)}
    countries.update({c.lower(): n.lower() for c, n in ALPHA3.items()})
    return {
        "source": "US and Canadian postal codes; AP state abbreviations; ISO 3166-1 codes "
                  "with English names from Unicode CLDR (babel); units, month, USPS "
                  "street-suffix and reviewers' short forms; "
                  "scripts/build_abbreviations.py",
        "us_states": {c.lower(): n.lower() for c, n in sorted(US_STATES.items())},
        "us_states_ap": {c.lower(): n.lower() for c, n in sorted(AP_STATES.items())},
        "ca_provinces": {c.lower(): n.lower() for c, n in sorted(CA_PROVINCES.items())},
        "countries": dict(sorted(countries.items())),
        "country_names": {c.lower(): n.lower() for c, n in sorted(EXTRA_NAMES.items())},
        "units": dict(sorted(UNITS.items())),
        "months": dict(sorted(MONTHS.items())),
        "address": dict(sorted(ADDRESS.items())),
        "informal": dict(sorted(INFORMAL.items())),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", type=Path,
                    default=ROOT / "evaltools" / "scoring" / "data" / "abbreviations.json")
    args = ap.parse_args(argv)
    table = build()
    tmp = args.output.with_suffix(".tmp")
    tmp.write_text(json.dumps(table, indent=1, sort_keys=True, ensure_ascii=False) + "\n",
                   encoding="utf-8")
    tmp.replace(args.output)
    print(f"{sum(len(v) for v in table.values() if isinstance(v, dict))} entries -> "
          f"{args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
