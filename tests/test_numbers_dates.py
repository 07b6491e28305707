"""Number and date anchors: extraction, canonical values, format-aware support."""

from __future__ import annotations

import datetime
import json
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaltools.scoring.anchors.dates import find_dates
from evaltools.scoring.anchors.mentions import Mention, find_mentions, find_support, supports
from evaltools.scoring.anchors.numbers import find_numbers

D = Decimal

# (claimed response text with exactly one anchor, context text, supported?), by format family.
# benchmarks/anchor_formats.py prints the pass rate of each group.
SUPPORT_GROUPS: dict[str, list[tuple[str, str, bool]]] = {
    "money (US English)": [
        ("It costs $1,299.00.", "Price: 1299 USD", True),
        ("It costs $1,299.00.", "Price: USD 1299", True),
        ("It costs USD 20.", "Only $20.00 today", True),
        ("It costs $20.", "It costs 20 dollars.", True),
        ("It costs $19.99.", "List price 19.99 USD", True),
        ("It costs $44.95.", "The bottle is 44.95 at most stores.", True),
        ("It costs $44.95.", "The bottle is €44.95.", False),
        ("It costs $44.95.", "The bottle is $45.95.", False),
        ("It costs $44.95.", "The bottle is $44.96.", False),
        ("It costs €5.", "Five euros: 5 EUR.", True),
        ("It costs €5.", "It costs £5.", False),
        ("It costs £1,299.00.", "Now GBP 1299", True),
        ("It costs $20 CAD.", "It costs C$20.", True),
        ("It costs $20 CAD.", "It costs $20.", False),
        ("Raised $3 million.", "They raised $3,000,000 in seed funding.", True),
        ("Raised $3 million.", "They raised 3 million dollars.", True),
        ("Raised $3 million.", "They raised $3.5M.", False),
        ("Revenue hit $2k.", "Revenue was $2,000.", True),
        ("It costs 99 cents.", "It costs $0.99.", True),
        ("It costs 44.95.", "Only $44.95 today.", True),
    ],
    "fractions (mixed numbers, vulgar fractions)": [
        ("It took two and a half hours.", "Took about 2 1/2 hours.", True),
        ("It took 2.5 hours.", "Took about 2\u00bd hours.", True),
        ("Add 1.5 cups of flour.", "Add 1-1/2 cups of flour.", True),
        ("It is a 0.5-mile walk.", "It is a 1/2 mile walk.", True),
        ("It took 2 hours.", "Took about 2 1/2 hours.", False),
        ("Add 0.75 cups of flour.", "Add 3/4 cup of flour.", True),
        ("Add 0.5 cups of flour.", "Add 3/4 cup of flour.", False),
    ],
    "quantities": [
        ("It weighs 2 kg.", "Weight: 2 kilograms", True),
        ("It weighs 2 kg.", "Weight: 2kg", True),
        ("It weighs 2 kg.", "Weight: 2 lb", False),
        ("It weighs 2 kg.", "Weight: 3 kg", False),
        ("It weighs 1 kg.", "Weight: 2.2 lbs", True),  # a conversion, noted
        ("It weighs 2 kg.", "Weight: 2", True),
        ("A 16 oz bottle.", "The 16 ounces bottle", True),
        ("A 16 oz bottle.", "The 16-ounce bottle", True),
        ("A 16 oz bottle.", "The 32-ounce bottle", False),
        ("A 16 oz bottle.", "A 16 ml bottle", False),
        ("Holds 1.5 L.", "Capacity 1.5 liters", True),
        ("Holds 500 ml.", "Capacity 500 millilitres", True),
        ("Holds 500 ml.", "Capacity 0.5 L", True),  # a conversion, noted
        ("A 12 inch pan.", 'A 12" pan', True),
        ("A 12 inch pan.", "A 12-inch pan", True),
        ("A 12 inch pan.", "A 12 cm pan", False),
        ("It is 10 ft long.", "Cable length: 10 feet", True),
        ("It is 10 ft.", "Cable length: ten feet", True),
        ("Sold as a 3 pack.", "Sold in a 3-pack", True),
        ("Sold as a 3 pack.", "Sold in a 4-pack", False),
        ("Twelve ounces.", "Contains 12 oz", True),
    ],
    "percentages": [
        ("Save 15%.", "Save 15 percent", True),
        ("Save 15%.", "Save 15 per cent", True),
        ("Save 15%.", "Save fifteen percent", True),
        ("Save 15%.", "Save 16%", False),
        ("Save 15%.", "Save $15", False),
    ],
    "plain numbers and number words": [
        ("It has 1,200 reviews.", "It has 1200 reviews", True),
        ("Rated 3.50 by users.", "rated 3.5", True),
        ("It has twelve colours.", "Comes in 12 colours", True),
        ("It has twenty-four cans.", "A case holds 24 cans", True),
        ("It has twenty-four cans.", "A case holds 25 cans", False),
        ("Sold 3 million units.", "Sold 3,000,000 units", True),
        ("Sold three million units.", "Sold 3 million units", True),
        ("Sold 1.5 billion units.", "Sold 1,500,000,000 units", True),
        # a scale word joined by a hyphen, as in a compound adjective
        ("in 3.4-billion-year-old rocks", "in rocks 3.4 billion years old", True),
        ("in 3.4-billion-year-old rocks", "in rocks 3.4 million years old", False),
        ("a $2-million grant", "a grant of $2,000,000", True),
        ("A dozen eggs.", "12 eggs per box", True),
        ("Two hundred and fifty pages.", "250 pages", True),
        ("Finished 5th overall.", "finished in 5th place", True),
        ("A one year warranty.", "Warranty: 1 year", True),
        ("A one year warranty.", "Warranty: 2 years", False),
        ("A 3x zoom.", "Zoom: 3×", True),
        ("Holds 10 m².", "Area: 10 square metres", True),
        ("Rated 4.5 stars.", "Average rating 4.5 out of 5", True),
        ("Rated 4.5 stars.", "Average rating 4.4 stars", False),
        ("Finished 5th overall.", "finished in 4th place", False),
    ],
    "dates (US and ISO)": [
        ("Released in 2024.", "Released on March 5, 2024.", True),
        ("Released in 2024.", "Released in 2023.", False),
        ("Released in March 2024.", "Released 2024-03-05", True),
        ("Released in March 2024.", "Released in 2024", False),
        ("Released on March 5, 2024.", "Released in 2024", False),
        ("Released on 2024-03-05.", "Released March 5, 2024", True),
        ("Released on 2024-03-05.", "Released 5th March 2024", True),
        ("Released on 2024-03-05.", "Released 03/05/2024", True),
        ("Released on 2024-03-05.", "Released 5th of March, 2024", True),
        ("Released on 2024-03-05.", "Released Mar 5 2024", True),
        ("Released on 2024-03-05.", "Released March 6, 2024", False),
        ("Released on 2024-03-05.", "Released March 5, 2023", False),
        # numeric dates with both numbers <= 12 read either way (05/03 is May 3 or March 5)
        ("Released on 2024-03-05.", "Released 05/03/2024", True),
        ("Released on 2024-05-03.", "Released 05/03/2024", True),
        ("Released on 2024-04-05.", "Released 05/03/2024", False),
        ("Released on 05/03/2024.", "Released March 5, 2024", True),
        ("Released on 05/03/2024.", "Released April 5, 2024", False),
        ("Released on 2024-03-13.", "Released 13/03/2024", True),
        ("Released on 2024-03-05.", "Released 03/03/2024", False),
        ("Released on 25/12/2024.", "Released December 25, 2024", True),
        ("Released on March 5th.", "Released on 2024-03-05", True),
        ("Released on March 5, 2024.", "Released on March 5th", False),
        ("Popular in the 1990s.", "First sold in 1995.", True),
        ("Popular in the 1990s.", "First sold in 2001.", False),
    ],
    "times": [
        ("Opens at 3pm.", "Opens at 15:00", True),
        ("Opens at 3pm.", "Opens at 3:00 p.m.", True),
        ("Opens at 3pm.", "Opens at 3 am", False),
        ("Opens at 3pm.", "Opens at 4pm", False),
        ("Opens at 9:30 a.m.", "Opens at 9:30am", True),
        ("Opens at 9:30 a.m.", "Opens at 9:45am", False),
        ("Opens at noon.", "Opens at 12:00", True),
        # a clock time with no a.m./p.m. and hour 1-12 reads either way
        ("Closes at 5pm.", "Closes at 5:00", True),
        ("Closes at 5:00.", "Closes at 5 p.m.", True),
        ("Closes at 5pm.", "Closes at 6:00", False),
        ("Closes at 5pm.", "Closes at 05:00", False),
        ("Closes at 17:00.", "Closes at 5:00 am", False),
    ],
    "kinds do not mix": [
        ("Released in 2024.", "It costs $2024", False),
        ("Opens at 3pm.", "It costs $3", False),
        ("Call 1-800-555-0199.", "Phone: (800) 555-0199", True),
        ("Call 1-800-555-0199.", "Phone: (800) 555-0198", False),
        ("It costs $5.", "", False),
    ],
    "decimal comma": [
        ("It costs 12,99 €.", "Preis: 12.99 EUR", True),
        ("It costs €12.99.", "Preis: 12,99 €", True),
        ("It costs €12.99.", "Preis: 12,90 €", False),
        ("It costs 12,99 €.", "Preis: 1299 €", False),
        ("It weighs 0,5 kg.", "Weight: 0.5 kg", True),
        ("It weighs 0,5 kg.", "Weight: 5 kg", False),
        ("Rated 4,5 stars.", "Rating: 4.5 stars", True),
        ("Holds 1,5 l.", "Capacity: 1.5 litres", True),
        ("Holds 1,5 l.", "Capacity: 15 litres", False),
        ("It costs $1,299.00.", "Preis: 1.299,00 $", True),
        ("It costs 1.299,00 €.", "Price: €1,299", True),
        ("It costs 1.299,00 €.", "Price: €1.30", False),
    ],
    "space, apostrophe and dot thousands": [
        ("It costs 4 500 Kč.", "Cena: 4500 CZK", True),
        ("It costs 4 500 Kč.", "Cena: 4 600 Kč", False),
        ("It costs 4 500 Kč.", "Cena: 45,00 Kč", False),
        ("It costs CHF 2'300,50.", "Preis: 2300.50 CHF", True),
        ("It costs CHF 2'300,50.", "Preis: CHF 2'300", False),
        ("It costs Rp 45.000.", "Harga: IDR 45000", True),
        ("It costs Rp 45.000.", "Harga: Rp 45.000", True),
        ("It costs Rp 45.000.", "Harga: Rp 45", False),
        ("Population 1.000.000.", "Population: one million", True),
        ("It is 4\u202f500 m high.", "Height: 4,500 m", True),
        ("It is 4\u00a0500 m high.", "Height: 4,600 m", False),
        ("It costs ₹1,00,000.", "Price: 100000 INR", True),
        ("It costs ₹1,00,000.", "Price: 10000 INR", False),
    ],
    "currency attached or before a symbol": [
        ("It costs RM75.", "Harga: MYR 75", True),
        ("It costs RM75.", "Harga: RM 57", False),
        ("It costs 129,00zł.", "Cena: 129 PLN", True),
        ("It costs 129,00zł.", "Cena: 129 €", False),
        ("It costs 1,200円.", "Price: ¥1,200", True),
        ("It costs 1,200円.", "Price: ¥12,000", False),
        ("It costs A$45.00.", "Price: 45 AUD", True),
        ("It costs A$45.00.", "Price: $45", False),
        ("It costs 100kr.", "Pris: 100 SEK", True),
        ("It costs 100kr.", "Pris: 100 EUR", False),
        ("It costs ₩5,000.", "Price: 5000 KRW", True),
        ("It costs R$30.", "Preço: BRL 30", True),
        ("It costs CAD $20.", "Price: C$20", True),
        ("It costs CAD $20.", "Price: $20", False),
        ("It costs $20.", "Price: CAD $20", False),
        ("It costs AUD $45.", "Price: A$45", True),
    ],
    "ambiguous separators (read both ways)": [
        ("It weighs 1.234 kg.", "Gewicht: 1234 kg", True),
        ("It weighs 1.234 kg.", "Weight: 1.234 kg", True),
        ("It weighs 1.234 kg.", "Weight: 1.235 kg", False),
        ("It has 1,234 reviews.", "1.234 Bewertungen", True),
        ("It weighs 1.250 kg.", "Gewicht: 1,25 kg", True),
        # a text whose unambiguous decimals all use one mark decides
        ("It weighs 1250 g.", "Preis 12,99 €, Gewicht 1.250 g", True),
        ("It weighs 1.25 g.", "Preis 12,99 €, Gewicht 1.250 g", False),
        ("It weighs 1.25 g.", "Price 3.50, weight 1.250 g", True),
        ("It weighs 1250 g.", "Price 3.50, weight 1.250 g", False),
    ],
    "dates (day-month, lower case, abbreviated, two-digit years)": [
        ("Released on 2024-03-05.", "Released 5 mar 2024", True),
        ("Released on 2024-03-05.", "released 5 march 2024", True),
        ("Released on 2024-03-05.", "released 5 may 2024", False),
        ("Released on March 5.", "released on Sept. 5", False),
        ("Released on September 5.", "released on Sept. 5", True),
        ("Released on September 5.", "released on sep 5", True),
        ("Released on January 5.", "released on jan 5", True),
        ("Released on 2024-03-05.", "Released 05.03.24", True),
        ("Released on 2024-03-05.", "Released 05.03.23", False),
        ("Released on 2024-03-05.", "Released March 5, '24", True),
        ("Released in March 2024.", "Released Mar '24", True),
        ("Released in March 2024.", "Released Mar '23", False),
        ("Released on 5 March 2024.", "Released 2024-03-05", True),
        ("Released on 5 March 2024.", "Released 2024-03-06", False),
        ("Released on 05.03.2024.", "Released 5 March 2024", True),
        ("Released on 25.12.2024.", "Released December 25, 2024", True),
        ("Released on 25.12.2024.", "Released December 24, 2024", False),
    ],
    "times (14.30, 14h30)": [
        ("Opens at 14.30.", "Opens at 2:30 pm", True),
        ("Opens at 2:30 pm.", "Opens at 14.30", True),
        ("Opens at 2:30 pm.", "Opens at 14h30", True),
        ("Opens at 14h30.", "Opens at 14:30", True),
        ("Opens at 14h30.", "Opens at 15:30", False),
        ("Opens at 2:30 pm.", "Opens at 14.45", False),
        ("Opens at 9.30am.", "Opens at 9:30", True),
        ("Closes at 17:30.", "Open 9.00-17.30", True),
        ("Closes at 17:30.", "Open 9.00-17.00", False),
        ("It costs $14.30.", "Sold at 14.30", True),  # "at 14.30" is a time or 14.3
    ],
    "qualifiers": [
        ("It has more than 40 stores.", "It has more than 40 stores.", True),
        ("It has more than 40 stores.", "It has over 40 stores.", True),
        ("It has more than 40 stores.", "It has exactly 40 stores.", False),
        ("It has more than 40 stores.", "It has up to 40 stores.", False),
        ("It has more than 40 stores.", "It has 40 stores.", False),
        ("It has 40 stores.", "It has more than 40 stores.", True),  # dropped: noted
        ("It has 40 stores.", "It has about 40 stores.", True),
        ("It has at least 40 stores.", "It has 40 stores.", True),
        ("It has at least 40 stores.", "It has more than 40 stores.", True),
        ("It has at least 40 stores.", "It has fewer than 40 stores.", False),
        ("It has 40+ stores.", "It has at least 40 stores.", True),
        ("Ships in up to 3 days.", "Ships within 3 days.", True),
        ("Ships in up to 3 days.", "Ships in 3 days.", True),
        ("Ships in up to 3 days.", "Ships in at least 3 days.", False),
        ("It costs under $50.", "It costs less than $50.", True),
        ("It costs under $50.", "It costs $50.", False),
        ("Raised about $2 million.", "Raised $2,000,000.", True),
        # "about" rounds a qualified figure as a bare one does (twenty-fourth round)
        ("Raised about $2 million.", "Raised more than $2 million.", True),
        ("It waited about 5 minutes.", "It waited less than 5 minutes.", True),
        ("Raised more than $2 million.", "Raised about $2 million.", False),
        ("Raised about $2 million.", "Raised about $3 million.", False),
        ("Sold about 2 million units.", "Sold roughly two million units", True),
    ],
    # a qualified figure rounds an exact one (fifty-fourth round): the step is the place of
    # the claim's last significant digit (570,000: 10,000; 1,500: 100; 10: 10)
    "rounding": [
        ("He stole more than £570,000.", "He stole £572,206.", True),  # 2,206 <= 10,000
        ("He stole over £500,000.", "He stole £572,206.", True),  # 72,206 <= 100,000
        ("He stole more than £600,000.", "He stole £572,206.", False),  # not more
        ("He stole more than £560,000.", "He stole £572,206.", False),  # 12,206 > 10,000
        ("It employs about 1,500 people.", "It employs 1,480 people.", True),  # 20 <= 50
        ("It employs almost 1,500 people.", "It employs 1,480 people.", True),
        ("It employs about 1,400 people.", "It employs 1,480 people.", False),  # 80 > 50
        ("It employs under 1,500 people.", "It employs 1,480 people.", True),  # 20 <= 100
        ("It employs under 1,500 people.", "It employs 1,380 people.", False),  # 120 > 100
        ("Sales rose nearly 10%.", "Sales rose 9.6%.", True),  # 0.4 <= 5 and <= 10 % of 10
        ("Sales rose about 10%.", "Sales rose 8.6%.", False),  # 1.4 > 10 % of 10
        ("It weighs about 2.4 kg.", "It weighs 2.38 kg.", True),  # 0.02 <= 0.05
        ("It weighs about 2.4 kg.", "It weighs 2.38 lb.", False),  # another unit
        ("It employs about 1,500 people.", "It employs about 1,480 people.", False),
        ("It employs up to 1,500 people.", "It employs 1,480 people.", False),  # a limit
        ("He stole £570,000.", "He stole £572,206.", False),  # a bare figure never rounds
        ("He stole about $570,000.", "He stole £572,206.", False),  # another currency
        ("It housed around 30 evacuees.", "It housed 32 evacuees.", False),  # a count < 100
        ("It housed around 300 evacuees.", "It housed 320 evacuees.", True),  # 20 <= 50, 30
        ("It housed around 300 evacuees.", "It housed 360 evacuees.", False),  # 60 > 50
        ("It costs about $30.", "It costs $34.", False),  # 4 <= 5 but > 10 % of 30
        ("It costs about $30.", "It costs $29.50.", True),  # 0.5 <= 5 and <= 3
    ],
    "other unit": [
        ("It weighs 40 kg.", "It weighs 40 lb.", False),
        ('It is 40 cm wide.', 'It is 40" wide.', False),
        ("It holds 40 l.", "It holds 40 kg.", False),
        ("It takes 40 minutes.", "It takes 40 hours.", False),
        ("It takes 40 minutes.", "It takes 40 min.", True),
    ],
    "unit conversions (noted)": [
        ("It is 72 °F outside.", "It is 22 °C outside.", True),
        ("It is 80 °F outside.", "It is 22 °C outside.", False),
        ("It weighs 1000 g.", "It weighs 1 kg.", True),
        ("It weighs 2 lb.", "It weighs 1 kg.", False),
        ("It weighs 2.2 lb.", "It weighs 1 kg.", True),
        ("It goes 100 km/h.", "Top speed 62 mph", True),
        ("It goes 120 km/h.", "Top speed 62 mph", False),
        ("It is 12 inches long.", "Length: 1 ft", True),
        ("It holds 2 l.", "It holds 2 kg", False),
    ],
}
SUPPORT_CASES = [case for cases in SUPPORT_GROUPS.values() for case in cases]


@pytest.mark.parametrize(("claimed", "context", "expected"), SUPPORT_CASES)
def test_support_table(claimed: str, context: str, expected: bool) -> None:
    mentions = find_mentions(claimed)
    assert len(mentions) == 1, mentions
    found = find_support(mentions[0], find_mentions(context))
    assert (found is not None) is expected, (mentions[0], find_mentions(context))
    if found is not None:
        assert supports(mentions[0], found)
        assert context[found.start:found.end] == found.text


def test_support_table_is_large_enough() -> None:
    assert len(SUPPORT_CASES) >= 60
    for name, cases in SUPPORT_GROUPS.items():  # every format family, both ways
        assert {e for *_, e in cases} == {True, False}, name


# (text, [(kind, text, start, end, value), ...])
EXTRACTION_CASES = [
    ("Now $1,299.00!", [("number", "$1,299.00", 4, 13, ("money", "USD", D("1299")))]),
    ("19.99 USD", [("number", "19.99 USD", 0, 9, ("money", "USD", D("19.99")))]),
    ("USD 20", [("number", "USD 20", 0, 6, ("money", "USD", D("20")))]),
    ("only €5", [("number", "€5", 5, 7, ("money", "EUR", D("5")))]),
    ("£1,299.00", [("number", "£1,299.00", 0, 9, ("money", "GBP", D("1299")))]),
    ("$3.5M round", [("number", "$3.5M", 0, 5, ("money", "USD", D("3500000")))]),
    ("2 kg", [("number", "2 kg", 0, 4, ("quantity", "kg", D("2")))]),
    ("a 2kg bag", [("number", "2kg", 2, 5, ("quantity", "kg", D("2")))]),
    ("32-ounce", [("number", "32-ounce", 0, 8, ("quantity", "oz", D("32")))]),
    ('a 12" pan', [("number", '12"', 2, 5, ("quantity", "in", D("12")))]),
    ("1.5 L", [("number", "1.5 L", 0, 5, ("quantity", "l", D("1.5")))]),
    ("16 fl oz", [("number", "16 fl oz", 0, 8, ("quantity", "fl oz", D("16")))]),
    ("5m cable", [("number", "5m", 0, 2, ("quantity", "m", D("5")))]),
    ("15 per cent", [("number", "15 per cent", 0, 11, ("percent", D("15")))]),
    ("1,200 and 3.50", [("number", "1,200", 0, 5, ("number", D("1200"))),
                        ("number", "3.50", 10, 14, ("number", D("3.5")))]),
    ("-5 degrees", [("number", "-5 degrees", 0, 10, ("quantity", "°", D("-5")))]),
    ("three million", [("number", "three million", 0, 13, ("number", D("3000000")))]),
    ("1.5 billion", [("number", "1.5 billion", 0, 11, ("number", D("1500000000")))]),
    ("2k views", [("number", "2k", 0, 2, ("number", D("2000")))]),
    ("a dozen", [("number", "a dozen", 0, 7, ("number", D("12")))]),
    ("Twenty-Four", [("number", "Twenty-Four", 0, 11, ("number", D("24")))]),
    ("one of the best", []),
    ("one year", [("number", "one year", 0, 8, ("quantity", "year", D("1")))]),
    ("One dollar", [("number", "One dollar", 0, 10, ("money", "USD", D("1")))]),
    ("3x zoom", [("number", "3x", 0, 2, ("quantity", "x", D("3")))]),
    ("12 x 10", [("number", "12", 0, 2, ("number", D("12"))),
                 ("number", "10", 5, 7, ("number", D("10")))]),
    ("99¢", [("number", "99¢", 0, 3, ("money", "USD", D("0.99")))]),
    ("$20 CAD", [("number", "$20 CAD", 0, 7, ("money", "CAD", D("20")))]),
    ("€20 USD", [("number", "€20", 0, 3, ("money", "EUR", D("20")))]),
    ("call (800) 555-0199", [("number", "(800) 555-0199", 5, 19, ("phone", "8005550199"))]),
    ("a few", []),
    ("one hundred", [("number", "one hundred", 0, 11, ("number", D("100")))]),
    ("two three", [("number", "two", 0, 3, ("number", D("2"))),
                   ("number", "three", 4, 9, ("number", D("3")))]),
    ("in 2019.", [("date", "2019", 3, 7, ("year", 2019))]),
    ("2019 mAh", [("number", "2019 mAh", 0, 8, ("quantity", "mAh", D("2019")))]),
    ("$2019", [("number", "$2019", 0, 5, ("money", "USD", D("2019")))]),
    ("2,019", [("number", "2,019", 0, 5, ("number", D("2019")))]),
    ("2024-03-05", [("date", "2024-03-05", 0, 10, ("date", 2024, 3, 5))]),
    ("on 03/05/2024", [("date", "03/05/2024", 3, 13, ("date", 2024, 3, 5))]),
    ("on 25/12/2024", [("date", "25/12/2024", 3, 13, ("date", 2024, 12, 25))]),
    ("on 05.03.2024", [("date", "05.03.2024", 3, 13, ("date", 2024, 3, 5))]),
    ("March 5, 2024", [("date", "March 5, 2024", 0, 13, ("date", 2024, 3, 5))]),
    ("5 March 2024", [("date", "5 March 2024", 0, 12, ("date", 2024, 3, 5))]),
    ("Mar 5 2024", [("date", "Mar 5 2024", 0, 10, ("date", 2024, 3, 5))]),
    ("the 5th of March 2024", [("date", "5th of March 2024", 4, 21, ("date", 2024, 3, 5))]),
    ("March 5th.", [("date", "March 5th", 0, 9, ("day", 3, 5))]),
    ("March 2024", [("date", "March 2024", 0, 10, ("month", 2024, 3))]),
    # a month named alone; "May" and "March" only after a word that dates
    ("back in October", [("date", "October", 8, 15, ("monthname", 10))]),
    ("leaves in March", [("date", "March", 10, 15, ("monthname", 3))]),
    ("March on, May I", []),
    ("June Carter sang", []),
    ("you may 5 times", [("number", "5", 8, 9, ("number", D("5")))]),
    ("$5 March sale", [("number", "$5", 0, 2, ("money", "USD", D("5")))]),
    # no such day: the month named alone, the day a number, the year a year
    ("February 30, 2024", [("date", "February", 0, 8, ("monthname", 2)),
                           ("number", "30", 9, 11, ("number", D("30"))),
                           ("date", "2024", 13, 17, ("year", 2024))]),
    ("at 3pm", [("date", "3pm", 3, 6, ("time", 15, 0))]),
    ("at 3 p.m.", [("date", "3 p.m.", 3, 9, ("time", 15, 0))]),
    ("at 9:30am", [("date", "9:30am", 3, 9, ("time", 9, 30))]),
    ("at 15:00", [("date", "15:00", 3, 8, ("time", 15, 0))]),
    ("12am", [("date", "12am", 0, 4, ("time", 0, 0))]),
    ("at noon", [("date", "noon", 3, 7, ("time", 12, 0))]),
    ("the 1990s", [("date", "1990s", 4, 9, ("decade", 1990))]),
    # a decade in two digits after "the", and a second one joined to it; an age is none
    ("the 30s and 40s", [("date", "the 30s", 0, 7, ("decade", 1930)),
                         ("date", "40s", 12, 15, ("decade", 1940))]),
    ("in her 30s", []),
    ("2024-03-05T15:30", [("date", "2024-03-05", 0, 10, ("date", 2024, 3, 5)),
                          ("date", "15:30", 11, 16, ("time", 15, 30))]),
    ("2024-03-05T15:30:00Z", [("date", "2024-03-05", 0, 10, ("date", 2024, 3, 5)),
                              ("date", "15:30:00", 11, 19, ("time", 15, 30))]),
    ("May 2024", [("date", "May 2024", 0, 8, ("month", 2024, 5))]),
    ("Sept. 5, 2024", [("date", "Sept. 5, 2024", 0, 13, ("date", 2024, 9, 5))]),
    ("3/5/24", [("date", "3/5/24", 0, 6, ("date", 2024, 3, 5))]),
    ("24/7", [("number", "24", 0, 2, ("number", D("24"))),
              ("number", "7", 3, 4, ("number", D("7")))]),
    ("v1.2.3 and B07XJ8C8F5", []),
    ("Model X200", []),
]


@pytest.mark.parametrize(("text", "expected"), EXTRACTION_CASES)
def test_extraction(text: str, expected: list) -> None:
    got = [(m.kind, m.text, m.start, m.end, m.value) for m in find_mentions(text)]
    assert got == expected


def test_values_are_canonical_decimals() -> None:
    (a,) = find_mentions("$20.00")
    (b,) = find_mentions("$20")
    assert a.value == b.value == ("money", "USD", D("20"))
    assert str(a.value[2]) == "20"
    assert hash(a.value) == hash(b.value)


def test_to_dict_plain_json() -> None:
    (m,) = find_mentions("about 1.5 billion")
    assert m.to_dict() == {"kind": "number", "text": "1.5 billion", "start": 6, "end": 17,
                           "value": ["number", "1500000000"], "qualifier": "~"}
    (d,) = find_mentions("2024-03-05")
    assert d.to_dict()["value"] == ["date", 2024, 3, 5]


def test_date_wins_over_numbers_inside() -> None:
    text = "Shipped 2024-03-05 for $1,299.00 at 3:30 pm"
    assert [m.text for m in find_mentions(text)] == ["2024-03-05", "$1,299.00", "3:30 pm"]
    # the lower-level finders do overlap; find_mentions resolves it
    assert len(find_numbers("2024-03-05")) > 1
    assert len(find_dates("2024-03-05")) == 1


def test_find_support_returns_first_supporting_mention() -> None:
    ctx = find_mentions("Was 44.95, now $44.95 or 44.95 EUR")
    claim = find_mentions("$44.95")[0]
    assert find_support(claim, ctx) is ctx[0]
    assert find_support(claim, []) is None


def test_find_mentions_rejects_non_text() -> None:
    with pytest.raises(TypeError, match="'text' parameter of find_mentions must be a str"):
        find_mentions(None)  # type: ignore[arg-type]


def test_huge_numbers_are_not_anchors() -> None:
    assert find_mentions("9" * 40) == []
    assert find_mentions("9" * 5000 + " kg") == []


# --- properties ---------------------------------------------------------------------

_PIECES = [*"0123456789 ,.-/:$€£¥%\"'", "am", "pm", "p.m.", "kg", "oz", "March", "May", "Mar",
           "twenty", "one", "hundred", "and", "a ", "dozen", "million", "per cent", "USD",
           "th", "k", "M", "\u00a0", "é", "٣", "T", "noon", "s"]
anchorish = st.lists(st.sampled_from(_PIECES), max_size=30).map("".join)


def _check_well_formed(text: str) -> list[Mention]:
    mentions = find_mentions(text)
    last_end = 0
    for m in mentions:
        assert m.kind in ("number", "date")
        assert 0 <= m.start < m.end <= len(text)
        assert text[m.start:m.end] == m.text
        assert m.start >= last_end  # sorted, non-overlapping
        last_end = m.end
        assert isinstance(hash(m.value), int)
        json.dumps(m.to_dict())
        assert supports(m, m)
        assert find_support(m, mentions) is not None
    return mentions


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_never_crashes_on_any_unicode(text: str) -> None:
    _check_well_formed(text)


@settings(max_examples=500, deadline=None)
@given(anchorish)
def test_well_formed_on_anchor_like_text(text: str) -> None:
    _check_well_formed(text)


@settings(max_examples=200, deadline=None)
@given(anchorish)
def test_deterministic(text: str) -> None:
    first = find_mentions(text)
    assert first == find_mentions(text)
    assert [m.to_dict() for m in first] == [m.to_dict() for m in find_mentions(text)]


@settings(max_examples=200, deadline=None)
@given(anchorish, anchorish)
def test_offsets_survive_a_prefix(prefix: str, text: str) -> None:
    # An anchor found in a longer text always has offsets into that text.
    _check_well_formed(prefix + " " + text)


# --- canonical values: one value whatever the format ------------------------------------

_MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August",
                "September", "October", "November", "December"]


def _ordinal_suffix(n: int) -> str:
    if n % 100 in (11, 12, 13):
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def _only_value(text: str) -> tuple:
    mentions = find_mentions(text)
    assert len(mentions) == 1, (text, mentions)
    assert mentions[0].text == text.strip()
    return mentions[0].value


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**12), st.integers(0, 99))
def test_money_formats_agree(whole: int, cents: int) -> None:
    amount = D(f"{whole}.{cents:02d}")
    expected = ("money", "USD", amount.normalize() if amount != amount.to_integral_value()
                else D(int(amount)))
    forms = [f"${whole:,}.{cents:02d}", f"{whole}.{cents:02d} USD", f"USD {whole:,}.{cents:02d}",
             f"US${whole}.{cents:02d}"]
    if cents == 0:
        forms += [f"${whole:,}", f"{whole} dollars"]
    for form in forms:
        assert _only_value(form) == expected


@settings(max_examples=200, deadline=None)
@given(st.dates(min_value=datetime.date(1000, 1, 1), max_value=datetime.date(2999, 12, 31)))
def test_date_formats_agree(day: datetime.date) -> None:
    y, m, d = day.year, day.month, day.day
    name = _MONTH_NAMES[m - 1]
    forms = [f"{y}-{m:02d}-{d:02d}", f"{name} {d}, {y}", f"{name[:3]} {d} {y}", f"{d} {name} {y}",
             f"{d}{_ordinal_suffix(d)} of {name} {y}", f"{name} {d}{_ordinal_suffix(d)}, {y}",
             f"{m:02d}/{d:02d}/{y}", f"{d:02d}.{m:02d}.{y}"]
    for form in forms:
        assert _only_value(form) == ("date", y, m, d)
    if 1900 <= y <= 2099:
        (claim,) = find_mentions(str(y))
        assert supports(claim, find_mentions(forms[0])[0])


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 23), st.integers(0, 59))
def test_time_formats_agree(hour: int, minute: int) -> None:
    h12 = hour % 12 or 12
    mer = "pm" if hour >= 12 else "am"
    forms = [f"{hour:02d}:{minute:02d}", f"{h12}:{minute:02d}{mer}",
             f"{h12}:{minute:02d} {mer[0]}.m.", f"{h12}:{minute:02d} {mer.upper()}"]
    if minute == 0:
        forms.append(f"{h12}{mer}")
    for form in forms:
        assert _only_value(form) == ("time", hour, minute)


_ONES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
         "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
         "eighteen", "nineteen"]
_TENS_WORDS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty",
               "ninety"]


def _spell(n: int, *, use_and: bool) -> str:
    """English words for 0 <= n < 10**9, e.g. 'two hundred and fifty-one thousand'."""
    if n < 20:
        return _ONES[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS_WORDS[tens] + (f"-{_ONES[ones]}" if ones else "")
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        tail = f"{' and' if use_and else ''} {_spell(rest, use_and=use_and)}" if rest else ""
        return f"{_ONES[hundreds]} hundred{tail}"
    for scale, name in ((10**6, "million"), (10**3, "thousand")):
        if n >= scale:
            high, rest = divmod(n, scale)
            tail = f" {_spell(rest, use_and=use_and)}" if rest else ""
            return f"{_spell(high, use_and=use_and)} {name}{tail}"
    raise AssertionError(n)  # pragma: no cover


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 10**9 - 1), st.booleans())
def test_number_words_agree_with_digits(n: int, use_and: bool) -> None:
    text = _spell(n, use_and=use_and)
    assert _only_value(text) == ("number", D(n))
    assert _only_value(f"{n:,}") == ("number", D(n))


# --- formats beyond US English: properties of the new parsers ---------------------------

from evaltools.scoring.anchors.numbers import decimal_convention, read_digit_run  # noqa: E402
from evaltools.scoring.anchors.units import convert, same_after_conversion  # noqa: E402

_EURO_PIECES = [*"0123456789 ,.'’+", "\u202f", "\u00a0", "zł", "Kč", "円", "RM", "Rp", "CAD $",
                "A$", "CHF ", "kr", "14h30", "at ", "more than ", "about ", "up to ", "°C", "°F",
                "kg", "lb", "mar", "may", "Sept.", "'24", "h", "Uhr", "€", "$", "-", "–"]
euroish = st.lists(st.sampled_from(_EURO_PIECES), max_size=30).map("".join)


@settings(max_examples=500, deadline=None)
@given(euroish)
def test_well_formed_on_european_like_text(text: str) -> None:
    mentions = _check_well_formed(text)
    for m in mentions:
        assert m.qualifier in ("", ">", ">=", "<", "<=", "~", "=", "+")
        assert all(isinstance(hash(o), int) for o in m.others)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123456789.,'’ \u202f\u00a0", max_size=25), st.booleans(),
       st.sampled_from([None, ".", ","]))
def test_digit_runs_read_or_refuse(run: str, money: bool, convention: str | None) -> None:
    read = read_digit_run(run, money=money, convention=convention) if run and run[0] in \
        "0123456789." else None
    if read is not None:
        value, other = read
        assert isinstance(value, D) and value >= 0
        assert other is None or (isinstance(other, D) and other != value)
    assert decimal_convention(run) in (None, ".", ",")


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**9), st.integers(0, 99),
       st.sampled_from([(".", ","), ("'", ","), ("\u202f", ","), (",", ".")]))
def test_grouped_money_agrees_whatever_the_separators(whole: int, cents: int, seps) -> None:
    group, mark = seps
    grouped = f"{whole:,}".replace(",", group)
    amount = D(f"{whole}.{cents:02d}")
    expected = ("money", "EUR", D(int(amount)) if amount == amount.to_integral_value()
                else amount.normalize())
    for form in (f"{grouped}{mark}{cents:02d} €", f"€{grouped}{mark}{cents:02d}",
                 f"EUR {grouped}{mark}{cents:02d}"):
        assert _only_value(form) == expected, form


@settings(max_examples=200, deadline=None)
@given(st.decimals(min_value=-10**6, max_value=10**6, places=3, allow_nan=False),
       st.sampled_from(["kg", "g", "lb", "oz", "m", "ft", "l", "ml", "°C", "°F", "mph", "h"]),
       st.sampled_from(["kg", "g", "lb", "oz", "m", "ft", "l", "ml", "°C", "°F", "km/h", "min"]))
def test_conversions_never_crash_and_round_trip(amount, unit, to) -> None:
    there = convert(amount, unit, to)
    if there is not None:
        back = convert(there, to, unit)
        assert abs(back - amount) <= D("1e-9") * max(1, abs(amount))
    same_after_conversion(amount, to, amount, unit)


def test_notes_name_the_qualifier_and_the_conversion() -> None:
    import evaltools

    r = evaltools.score("How warm is it?", "It is 22 °C, with more than 40 stalls and up to 9 "
                        "bands.", "It is 72 °F, with 40 stalls and more than 9 bands.")
    notes = {a.text: (a.supported, a.note) for a in r.anchors if a.kind != "claim"}
    assert notes["72 °F"] == (True, "matches '22 °C' in the context, converted: 22 °C = 71.6 °F")
    assert notes["40"] == (True, "matches '40' in the context ('more than 40')")
    assert notes["9"] == (False, "'9' is in the context, but as 'up to 9', not 'more than 9'")


@pytest.mark.parametrize(("claim", "context", "supported"), [
    # a month named alone is supported by the month named alone, or by any date in it
    ("It leaves in March.", "It leaves South Africa in March.", True),
    ("It leaves in May.", "It leaves South Africa in March.", False),
    ("A November review praised it.", "Reviewed 2022-11-18.", True),
    ("A December review praised it.", "Reviewed 2022-11-18.", False),
    ("It opened in June.", "It opened on June 5.", True),
    ("It opened in June.", "It opened in June 2021.", True),
])
def test_a_month_named_alone_is_supported_by_a_date_in_it(claim, context, supported):
    (m,) = find_mentions(claim)
    assert (find_support(m, find_mentions(context)) is not None) is supported


@pytest.mark.parametrize(("response", "supported"), [
    ("It leaves South Africa in March.", True),
    ("It leaves South Africa in May.", False),
    ("A November review praised it.", True),
])
def test_the_scorer_checks_a_month_named_alone(response, supported):
    import evaltools

    ctx = "The bee-eater leaves South Africa in March. Reviewed 2022-11-18."
    r = evaltools.score("When does it leave?", ctx, response)
    assert [a.supported for a in r.anchors if a.kind == "date"] == [supported]


@pytest.mark.parametrize(("text", "found"), [
    # a unit hyphened to a word that is no measure of it is part of a name: no quantity
    ("one day-house renter", []),
    ("two day-use permits", [("two", ("number", Decimal(2)))]),
    # a measure after the hyphen keeps the quantity
    ("a 3-day-old puppy", [("3-day", ("quantity", "day", Decimal(3)))]),
    ("a 10-minute-long wait", [("10-minute", ("quantity", "min", Decimal(10)))]),
    ("a one-day pass", [("one-day", ("quantity", "day", Decimal(1)))]),
])
def test_a_unit_in_a_hyphened_name_is_no_quantity(text, found):
    assert [(m.text, m.value) for m in find_mentions(text)] == found


def test_a_bare_hour_before_on_a_day_may_be_a_clock_time():
    m = find_mentions("closes at 10 p.m. (11 on Friday)")[1]
    assert (m.text, m.others) == ("11", (("time", 11, 0), ("time", 23, 0)))
    assert find_mentions("we saw 11 of them")[0].others == ()


@pytest.mark.parametrize(("text", "found"), [
    # "m" before a currency word or code is millions; alone it stays metres
    ("up to 30m euros", [("30m euros", ("money", "EUR", Decimal(30_000_000)))]),
    ("30m EUR", [("30m EUR", ("money", "EUR", Decimal(30_000_000)))]),
    ("a 400m race", [("400m", ("quantity", "m", Decimal(400)))]),
])
def test_millions_before_a_currency_word(text, found):
    assert [(m.text, m.value) for m in find_mentions(text)] == found


@pytest.mark.parametrize(("text", "others"), [
    # around a bare hour that counts nothing: also a clock time
    ("Line was long around 11, drop off early.", (("time", 11, 0), ("time", 23, 0))),
    ("We left around 3.", (("time", 3, 0), ("time", 15, 0))),
    # around a count: not a time
    ("Around 7 people came.", ()),
    ("It weighs around 9.5 kg.", ()),
])
def test_a_bare_hour_after_around_when_it_counts_nothing(text, others):
    assert find_mentions(text)[0].others == others


@pytest.mark.parametrize(("text", "found"), [
    # a price before "dozen": the dozen's price
    ("a $16 dozen", [("$16", ("money", "USD", Decimal(16))), ("dozen", ("number", Decimal(12)))]),
    ("2 dozen eggs", [("2 dozen", ("number", Decimal(24)))]),
    # half of one percent
    ("a half of one percent of GDP", [("half of one percent", ("percent", Decimal("0.5")))]),
    ("half a per cent", [("half a per cent", ("percent", Decimal("0.5")))]),
    # two decades joined by a hyphen
    ("from the 50s-60s", [("the 50s", ("decade", 1950)), ("60s", ("decade", 1960))]),
])
def test_a_dozens_price_half_a_percent_and_a_range_of_decades(text, found):
    assert [(m.text, m.value) for m in find_mentions(text)] == found


def test_a_rounded_figure_is_supported_and_its_note_says_so() -> None:
    # the fifty-fourth round: a faithful summary's "more than £570,000" for the article's
    # £572,206 had been an unsupported number; the scorer reads it through SupportIndex
    import evaltools

    ctx = ("He was charged with stealing £572,206 from a quarry firm. The firm employs 1,480 "
           "people.")
    r = evaltools.score("What happened?", ctx,
                        "He stole more than £570,000 from a firm of about 1,500 people.")
    (a, b) = [x for x in r.anchors if x.kind == "number"]
    assert (a.supported, a.evidence, a.note) == (
        True, "£572,206", "matches '£572,206' in the context, which 'more than £570,000' "
                          "rounds")
    assert (b.supported, b.evidence) == (True, "1,480")
    assert ctx[a.evidence_start:a.evidence_end] == "£572,206"
    # a bare figure is another figure, and "up to" states a limit
    r = evaltools.score("What happened?", ctx, "He stole £570,000 from up to 1,500 people.")
    assert [x.supported for x in r.anchors if x.kind == "number"] == [False, False]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["about", "more than", "under", "nearly", "at least", "up to", ""]),
       st.integers(min_value=1, max_value=10**7), st.integers(min_value=1, max_value=10**7))
def test_rounding_never_crashes_and_holds_its_bounds(word, claimed, context) -> None:
    from evaltools.scoring.anchors.mentions import rounds

    c = find_mentions(f"{word} {claimed:,} people".strip())
    f = find_mentions(f"{context:,} people")
    if len(c) != 1 or len(f) != 1:
        return
    if rounds(c[0], f[0]):
        x, v = c[0].value[-1], f[0].value[-1]
        step = D(1).scaleb(x.normalize().as_tuple().exponent)
        assert c[0].qualifier in ("~", ">", ">=", "<") and v != x
        assert abs(v - x) <= step  # never further than one step of the claim's precision
