"""Word lists of the built-in judge (English, Polish and Lithuanian), kept apart from its logic.

Every word here is *folded*: lower case, Polish and Lithuanian letters without diacritics (``ł`` -> ``l``,
``ė`` -> ``e``, ``š`` -> ``s``),
because the judge compares folded text. Adding a language means adding its lists here and a
stemmer in :mod:`citecheck.judges.builtin.words`.
"""

from __future__ import annotations

EN = "en"
PL = "pl"
LT = "lt"
LANGUAGES = (EN, PL, LT)

# --- numbers written as words -------------------------------------------------------------

NUMBER_WORDS: dict[str, dict[str, float]] = {
    EN: {
        "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
        "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
        "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
        "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
        "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100, "thousand": 1000,
        "dozen": 12, "once": 1, "twice": 2, "thrice": 3,
    },
    PL: {
        "zero": 0,
        "jeden": 1, "jedna": 1, "jedno": 1, "jednego": 1, "jednej": 1, "jednym": 1,
        "dwa": 2, "dwie": 2, "dwoch": 2, "dwom": 2, "dwoma": 2,
        "trzy": 3, "trzech": 3, "trzem": 3, "trzema": 3,
        "cztery": 4, "czterech": 4, "czterem": 4,
        "piec": 5, "pieciu": 5, "szesc": 6, "szesciu": 6, "siedem": 7, "siedmiu": 7,
        "osiem": 8, "osmiu": 8, "dziewiec": 9, "dziewieciu": 9, "dziesiec": 10, "dziesieciu": 10,
        "jedenascie": 11, "jedenastu": 11, "dwanascie": 12, "dwunastu": 12,
        "trzynascie": 13, "trzynastu": 13, "czternascie": 14, "czternastu": 14,
        "pietnascie": 15, "pietnastu": 15, "szesnascie": 16, "szesnastu": 16,
        "siedemnascie": 17, "siedemnastu": 17, "osiemnascie": 18, "osiemnastu": 18,
        "dziewietnascie": 19, "dziewietnastu": 19,
        "dwadziescia": 20, "dwudziestu": 20, "trzydziesci": 30, "trzydziestu": 30,
        "czterdziesci": 40, "czterdziestu": 40, "piecdziesiat": 50, "piecdziesieciu": 50,
        "szescdziesiat": 60, "szescdziesieciu": 60, "siedemdziesiat": 70, "osiemdziesiat": 80,
        "dziewiecdziesiat": 90, "sto": 100, "stu": 100, "dwiescie": 200, "trzysta": 300,
        "czterysta": 400, "piecset": 500, "tysiac": 1000, "tysiaca": 1000, "tysiace": 1000,
        "tysiecy": 1000, "pol": 0.5,  # "pół roku" = six months
        # the other cases of two to four, and the collective numerals said of people and children
        # ("dwoje dorosłych i troje dzieci", "z dwojgiem dzieci")
        "dwiema": 2, "trzej": 3, "czterej": 4, "czterema": 4, "piecioma": 5,
        "dwoje": 2, "dwojga": 2, "dwojgu": 2, "dwojgiem": 2, "troje": 3, "trojga": 3, "trojgu": 3, "trojgiem": 3,
        "czworo": 4, "czworga": 4, "czworgu": 4, "czworgiem": 4, "piecioro": 5, "pieciorga": 5, "pieciorgiem": 5,
        "szescioro": 6, "szesciorga": 6, "dwojka": 2, "dwojke": 2, "dwojki": 2, "trojka": 3, "trojke": 3,
        "trojki": 3, "czworka": 4, "czworke": 4, "czworki": 4,  # "z dwójką dzieci" (not "piątki": Fridays)
    },
    LT: {
        "nulis": 0,
        "vienas": 1, "viena": 1, "vieno": 1, "vienos": 1, "vienu": 1, "vienerius": 1, "vieneri": 1,
        "vieneriu": 1, "vieneriems": 1, "dvejiems": 2, "trejiems": 3, "karta": 1,
        "du": 2, "dvi": 2, "dvieju": 2, "dviem": 2, "dveji": 2, "dveju": 2, "dvejus": 2,
        "trys": 3, "triju": 3, "trims": 3, "tris": 3, "treji": 3, "treju": 3, "trejus": 3,
        "keturi": 4, "keturiu": 4, "keturis": 4, "keturias": 4, "ketveri": 4, "ketveriu": 4,
        "penki": 5, "penkiu": 5, "penkis": 5, "penkias": 5, "penkeri": 5, "penkeriu": 5,
        # the collective numerals of plural-only nouns ("šešerių metų", "penkerius metus")
        "ketverius": 4, "penkerius": 5, "seseri": 6, "seseriu": 6, "seserius": 6, "septyneri": 7, "septyneriu": 7,
        "septynerius": 7, "astuoneri": 8, "astuoneriu": 8, "astuonerius": 8, "devyneri": 9, "devyneriu": 9,
        "devynerius": 9,
        "sesi": 6, "sesiu": 6, "sesis": 6, "sesias": 6, "septyni": 7, "septyniu": 7, "septynis": 7,
        "septynias": 7, "astuoni": 8, "astuoniu": 8, "astuonis": 8, "astuonias": 8,
        "devyni": 9, "devyniu": 9, "devynis": 9, "devynias": 9, "desimt": 10, "desimties": 10, "vienuolika": 11, "dvylika": 12,
        "trylika": 13, "keturiolika": 14, "penkiolika": 15, "sesiolika": 16, "septyniolika": 17,
        "astuoniolika": 18, "devyniolika": 19, "dvidesimt": 20, "trisdesimt": 30, "keturiasdesimt": 40,
        "penkiasdesimt": 50, "simtas": 100, "simto": 100, "simtu": 100, "tukstantis": 1000,
        "tukstancio": 1000, "tukstanciu": 1000, "puse": 0.5, "puses": 0.5, "pusei": 0.5,  # "pusę metų"
        "pusantro": 1.5, "pusantros": 1.5, "pusantra": 1.5, "pusantru": 1.5, "pusantrais": 1.5,  # "pusantros valandos"
        # the genitive of eleven to nineteen and of the tens ("vaikai iki aštuoniolikos metų", "iki trisdešimties
        # dienų"), and the tens sixty to ninety
        "vienuolikos": 11, "dvylikos": 12, "trylikos": 13, "keturiolikos": 14, "penkiolikos": 15, "sesiolikos": 16,
        "septyniolikos": 17, "astuoniolikos": 18, "devyniolikos": 19, "dvidesimties": 20, "trisdesimties": 30,
        "keturiasdesimties": 40, "penkiasdesimties": 50, "sesiasdesimt": 60, "sesiasdesimties": 60,
        "septyniasdesimt": 70, "septyniasdesimties": 70, "astuoniasdesimt": 80, "astuoniasdesimties": 80,
        "devyniasdesimt": 90, "devyniasdesimties": 90,
    },
}

MULTIPLIER_WORDS = {"hundred": 100, "thousand": 1000, "tysiac": 1000, "tysiace": 1000, "tysiecy": 1000,
                    "tysiaca": 1000, "tukstantis": 1000, "tukstancio": 1000, "tukstanciu": 1000}
# Words that count occurrences ("twice" = 2 times): the unit noun they imply.
TIMES_WORDS = {"once": "times", "twice": "times", "thrice": "times"}

# Polish compound adjectives: "dwuletnia" (two-year), "trzymiesieczny" (three-month).
PL_COMPOUND_PREFIX: dict[str, float] = {
    "jedno": 1, "dwu": 2, "trzy": 3, "cztero": 4, "piecio": 5, "szescio": 6, "siedmio": 7,
    "osmio": 8, "dziewiecio": 9, "dziesiecio": 10, "dwunasto": 12, "czternasto": 14,
    "pietnasto": 15, "dwudziesto": 20, "trzydziesto": 30,
}
PL_COMPOUND_UNIT: dict[str, str] = {"letn": "year", "roczn": "year", "miesieczn": "month",
                                    "tygodniow": "week", "dniow": "day", "godzinn": "hour"}

# --- units ---------------------------------------------------------------------------------
# folded word -> (dimension, unit, factor to the dimension's base unit). Units of one dimension
# with a factor convert into each other (14 days = 2 weeks, 2,000 g = 2 kg); pounds and
# kilograms both convert to grams, so "20 lb" never equals "20 kg".

_DURATION = {
    "minute": ["min", "mins", "minute", "minutes", "minut", "minuty", "minuta", "minute", "minuciu", "minutes",
               "minutems", "minutemis"],
    "hour": ["h", "hr", "hrs", "hour", "hours", "godzina", "godziny", "godzin", "godzine", "godz",
             "val", "valanda", "valandos", "valandu", "valandas", "valandoms", "valandomis"],
    "day": ["day", "days", "dzien", "dni", "dnia", "doba", "doby", "dobe", "dob", "dniach",
            "diena", "dienos", "dienu", "dienas", "dienai", "dienoms", "dienomis", "paros", "paru", "paras",
            "paroms", "para", "parai"],
    "week": ["week", "weeks", "wk", "wks", "tydzien", "tygodnie", "tygodni", "tygodnia", "tygodniach",
             "savaite", "savaites", "savaiciu", "savaitems", "savaitemis", "savaitei"],
    "month": ["month", "months", "mth", "mths", "miesiac", "miesiace", "miesiecy", "miesiaca", "mies",
              "menuo", "menesio", "menesiu", "menesius", "menesi", "men", "menesiai", "menesiams", "menesiais", "menesiui"],
    "year": ["year", "years", "yr", "yrs", "rok", "lata", "lat", "roku", "latach", "metai", "metu", "metus", "metams"],
}
# A month is a twelfth of a year, so "12 months" = "one year" (and 30 days is not a month).
_DURATION_FACTOR = {"minute": 1, "hour": 60, "day": 1440, "week": 10080, "month": 43800, "year": 525600}
_MASS = {("g", 1.0): ["g", "gram", "grams", "gramow", "gramy"],
         ("kg", 1000.0): ["kg", "kilo", "kilos", "kilogram", "kilograms", "kilogramow", "kilogramy"],
         ("lb", 453.59237): ["lb", "lbs", "pound", "pounds", "funt", "funty", "funtow"],
         ("oz", 28.349523): ["oz", "ounce", "ounces", "uncja", "uncji"],
         ("t", 1e6): ["tonne", "tonnes", "ton", "tona", "tony", "ton"]}
_LENGTH = {("mm", 1.0): ["mm", "millimetre", "millimetres", "millimeter", "millimeters", "milimetrow"],
           ("cm", 10.0): ["cm", "centimetre", "centimetres", "centimeter", "centimeters", "centymetrow", "centymetry"],
           ("m", 1000.0): ["m", "metre", "metres", "meter", "meters", "metr", "metry", "metrow"],
           ("km", 1e6): ["km", "kilometre", "kilometres", "kilometer", "kilometers", "kilometrow", "kilometry"],
           ("in", 25.4): ["inch", "inches", "cal", "cali"],
           ("ft", 304.8): ["ft", "foot", "feet", "stopa", "stopy", "stop"],
           ("mi", 1609344.0): ["mile", "miles", "mila", "mile", "mil"]}
_VOLUME = {("ml", 1.0): ["ml", "millilitre", "millilitres", "milliliter", "milliliters", "mililitrow"],
           ("l", 1000.0): ["l", "litre", "litres", "liter", "liters", "litr", "litry", "litrow"]}

UNITS: dict[str, tuple[str, str, float]] = {}
for _unit, _words in _DURATION.items():
    for _w in _words:
        UNITS[_w] = ("duration", _unit, float(_DURATION_FACTOR[_unit]))
# Lithuanian "pusmetis" is half a year, six months ("per pusmetį" = "per šešis mėnesius")
LT_HALF_YEAR_WORDS = ("pusmetis", "pusmeti", "pusmecio", "pusmeciui", "pusmeciai", "pusmecius", "pusmeciu")
for _w in LT_HALF_YEAR_WORDS:
    UNITS[_w] = ("duration", "month", 6.0 * _DURATION_FACTOR["month"])
for _table, _dim in ((_MASS, "mass"), (_LENGTH, "length"), (_VOLUME, "volume")):
    for (_unit, _factor), _words in _table.items():
        for _w in _words:
            UNITS.setdefault(_w, (_dim, _unit, _factor))

# "working days", "dni robocze": a day unit that only equals the same count of days.
WORKING_BEFORE = {"working", "business", "work", "roboczy", "robocze", "roboczych", "roboczego", "darbo"}
WORKING_AFTER = {"roboczy", "robocze", "roboczych", "roboczego", "roboczym"}
CALENDAR_WORDS = {"calendar", "kalendarzowych", "kalendarzowe", "kalendarzowym", "kalendoriniu", "kalendorines",
                  "kalendorinems", "kalendorine"}

# Currency: symbol or word -> (ISO code, factor to the main unit).
CURRENCY_BEFORE: dict[str, tuple[str, float]] = {
    "€": ("EUR", 1.0), "$": ("USD", 1.0), "£": ("GBP", 1.0), "¥": ("JPY", 1.0),
    "eur": ("EUR", 1.0), "usd": ("USD", 1.0), "gbp": ("GBP", 1.0), "pln": ("PLN", 1.0),
    "jpy": ("JPY", 1.0), "chf": ("CHF", 1.0),
}
CURRENCY_AFTER: dict[str, tuple[str, float]] = {
    "€": ("EUR", 1.0), "eur": ("EUR", 1.0), "euro": ("EUR", 1.0), "euros": ("EUR", 1.0),
    "usd": ("USD", 1.0), "dollar": ("USD", 1.0), "dollars": ("USD", 1.0), "dolar": ("USD", 1.0),
    "dolary": ("USD", 1.0), "dolarow": ("USD", 1.0), "gbp": ("GBP", 1.0), "sterling": ("GBP", 1.0),
    "p": ("GBP", 0.01), "pence": ("GBP", 0.01), "zl": ("PLN", 1.0), "zloty": ("PLN", 1.0),
    "zlotych": ("PLN", 1.0), "zlote": ("PLN", 1.0), "zlotego": ("PLN", 1.0), "pln": ("PLN", 1.0),
    "gr": ("PLN", 0.01), "groszy": ("PLN", 0.01), "yen": ("JPY", 1.0), "jenow": ("JPY", 1.0),
    "jpy": ("JPY", 1.0), "chf": ("CHF", 1.0), "ct": ("EUR", 0.01), "cents": ("USD", 0.01),
    "euro-cent": ("EUR", 0.01), "euru": ("EUR", 1.0), "eurai": ("EUR", 1.0), "eurus": ("EUR", 1.0), "eura": ("EUR", 1.0),
    "centu": ("EUR", 0.01), "centai": ("EUR", 0.01),
}
# "pounds" after a number is sterling in a sentence about a price and not about a weight ("delivery costs 3.50
# pounds"; "parcels up to 20 pounds" stays a weight).
POUND_MONEY_WORDS = frozenset({"cost", "costs", "price", "priced", "fee", "fees", "pay", "pays", "paid", "paying",
                               "charge", "charged", "charges", "refund", "refunded", "spend", "subscription", "fine",
                               "discount", "£", "sterling", "ticket", "tickets", "free", "order", "orders",
                               "spending", "buy", "buys", "bought", "purchase", "purchased", "sold", "sells", "spent",
                               "deposit", "fare", "fares", "rent", "surcharge", "refundable"})
POUND_MASS_WORDS = frozenset({"weigh", "weighs", "weight", "weighing", "heavy", "heavier", "lighter", "kg", "lb", "lbs"})
PERCENT_WORDS = {"%", "percent", "procent", "proc", "procentow", "procenty", "procentu", "procentai"}

MONTHS: dict[str, int] = {}
for _i, _names in enumerate(
    [
        ["january", "jan", "styczen", "stycznia", "styczniu", "sausis", "sausio"],
        ["february", "feb", "luty", "lutego", "lutym", "vasaris", "vasario"],
        ["march", "mar", "marzec", "marca", "marcu", "kovas", "kovo"],
        ["april", "apr", "kwiecien", "kwietnia", "kwietniu", "balandis", "balandzio"],
        ["may", "maj", "maja", "maju", "geguze", "geguzes"],
        ["june", "jun", "czerwiec", "czerwca", "czerwcu", "birzelis", "birzelio"],
        ["july", "jul", "lipiec", "lipca", "lipcu", "liepa", "liepos"],
        ["august", "aug", "sierpien", "sierpnia", "sierpniu", "rugpjutis", "rugpjucio"],
        ["september", "sep", "sept", "wrzesien", "wrzesnia", "wrzesniu", "rugsejis", "rugsejo"],
        ["october", "oct", "pazdziernik", "pazdziernika", "pazdzierniku", "spalis", "spalio"],
        ["november", "nov", "listopad", "listopada", "listopadzie", "lapkritis", "lapkricio"],
        ["december", "dec", "grudzien", "grudnia", "grudniu", "gruodis", "gruodzio"],
    ],
    start=1,
):
    for _name in _names:
        MONTHS[_name] = _i

# Times of day said in words (English): "half past six", "quarter to nine", "11 in the morning", "noon".
CLOCK_DAY_PARTS: dict[tuple[str, ...], str] = {
    ("in", "the", "morning"): "am", ("in", "the", "afternoon"): "pm", ("in", "the", "evening"): "pm",
}
CLOCK_PAST_TO: dict[tuple[str, str], int] = {("half", "past"): 30, ("quarter", "past"): 15, ("quarter", "to"): -15}
CLOCK_NOON_WORDS: dict[str, str] = {"noon": "pm", "midday": "pm", "midnight": "am"}

# --- bounds --------------------------------------------------------------------------------
# Word sequences right before a quantity that make it an upper ("max") or lower ("min") bound.
BOUND_PHRASES: dict[str, list[tuple[tuple[str, ...], str]]] = {
    EN: [
        (("up", "to"), "max"), (("no", "more", "than"), "max"), (("not", "more", "than"), "max"),
        (("at", "most"), "max"), (("maximum",), "max"), (("max",), "max"), (("within",), "max"),
        (("under",), "max"), (("below",), "max"), (("less", "than"), "max"), (("fewer", "than"), "max"),
        (("not", "exceed"), "max"), (("exceed",), "max"), (("until",), "max"), (("by",), "max"),
        (("at", "least"), "min"), (("minimum",), "min"), (("min",), "min"), (("over",), "min"),
        (("more", "than"), "min"), (("above",), "min"), (("from",), "min"), (("start", "at"), "min"),
        (("starting", "at"), "min"), (("starts", "at"), "min"), (("heavier", "than"), "min"),
        (("longer", "than"), "min"), (("older", "than"), "min"), (("after",), "min"),
        (("opens", "at"), "min"), (("open", "at"), "min"), (("opens",), "min"), (("closes", "at"), "max"),
        (("close", "at"), "max"), (("closes",), "max"),
        (("no", "later", "than"), "max"), (("not", "later", "than"), "max"), (("reaches",), "min"), (("reach",), "min"),
        (("maximum", "of"), "max"), (("minimum", "of"), "min"), (("younger", "than"), "max"),
    ],
    PL: [
        (("do",), "max"), (("maksymalnie",), "max"), (("maks",), "max"), (("najwyzej",), "max"),
        (("ponizej",), "max"), (("w", "ciagu"), "max"), (("mniej", "niz"), "max"),
        (("nie", "wiecej", "niz"), "max"), (("przed",), "max"),
        (("najpozniej",), "max"), (("najdluzej",), "max"), (("nie", "dluzej", "niz"), "max"),
        (("co", "najmniej"), "min"), (("minimum",), "min"), (("min",), "min"), (("powyzej",), "min"),
        (("ponad",), "min"), (("od",), "min"), (("wiecej", "niz"), "min"), (("przynajmniej",), "min"),
        (("po",), "min"), (("otwierany", "o"), "min"), (("otwierana", "o"), "min"), (("otwierane", "o"), "min"),
        (("zamykany", "o"), "max"), (("zamykana", "o"), "max"), (("zamykane", "o"), "max"),
        # opening and closing said with a verb ("zamyka się o 14:00", "otwieramy o 9:00"), and a time of day
        # after "godz." / "godziny" ("do godz. 18:00", "od godziny 8")
        (("zamyka", "sie", "o"), "max"), (("zamykaja", "sie", "o"), "max"), (("zamykamy", "o"), "max"),
        (("otwiera", "sie", "o"), "min"), (("otwieraja", "sie", "o"), "min"), (("otwieramy", "o"), "min"),
        (("do", "godz"), "max"), (("do", "godziny"), "max"), (("od", "godz"), "min"), (("od", "godziny"), "min"),
        (("przed", "godz"), "max"), (("przed", "godzina"), "max"), (("po", "godz"), "min"),
        (("po", "godzinie"), "min"),
    ],
    LT: [
        # "ne daugiau nei" (no more than) before "daugiau nei" (more than): the longer phrase is tried first
        (("ne", "daugiau", "nei"), "max"), (("ne", "ilgiau", "nei"), "max"), (("ne", "maziau", "nei"), "min"),
        (("ne", "veliau", "nei"), "max"), (("ne", "anksciau", "nei"), "min"),
        # "ne jaunesni nei 21 metų" (no younger than) is 21 or more; "ne vyresni nei 12 metų" 12 or less
        *[(("ne", younger, than), "min") for younger in ("jaunesni", "jaunesnis", "jaunesniems", "jaunesnes")
          for than in ("nei", "kaip")],
        *[(("ne", older, than), "max") for older in ("vyresni", "vyresnis", "vyresniems", "vyresnes")
          for than in ("nei", "kaip")],
        (("virsija",), "min"), (("virsys",), "min"), (("virsijanti",), "min"), (("virsijantiems",), "min"),
        (("virsijancioms",), "min"), (("virsijancio",), "min"),
        (("iki",), "max"), (("per",), "max"), (("daugiausia",), "max"), (("ne", "daugiau", "kaip"), "max"),
        (("ne", "ilgiau", "kaip"), "max"), (("maziau", "nei"), "max"), (("jaunesni", "nei"), "max"),
        (("jaunesnis", "nei"), "max"), (("jaunesniems", "nei"), "max"), (("jaunesnes", "nei"), "max"),
        (("vyresni", "nei"), "min"), (("vyresnis", "nei"), "min"), (("vyresniems", "nei"), "min"),
        (("vyresnes", "nei"), "min"), (("maksimaliai",), "max"), (("pries",), "max"),
        (("nuo",), "min"), (("ne", "maziau", "kaip"), "min"), (("maziausiai",), "min"), (("daugiau", "nei"), "min"), (("bent",), "min"),
        (("virs",), "min"), (("po",), "min"), (("minimaliai",), "min"), (("atidaromas",), "min"),
        (("atidaroma",), "min"), (("atidaromi",), "min"), (("uzdaromas",), "max"), (("uzdaroma",), "max"),
    ],
}
# "Cancel no later than 24 hours before" is "at least 24 hours before": a latest point said as a time before
# the event is a lead time's lower bound. The words after the duration that make it so, and the bound words.
EN_LEAD_TIME_AFTER = frozenset({"before", "ahead", "beforehand", "prior", "earlier"})
EN_LATEST_WORDS = frozenset({"later"})

# A person's age said with no "years old" ("children aged 5 to 15", "kids from 5 to 15", "people over 65",
# "younger than five", "under-5s"): read as years, like "5 years old", not as a count of the word after it.
EN_AGE_BEFORE = frozenset({"aged", "age", "ages"})
EN_AGE_BOUNDS = frozenset({"under", "over", "from", "between"})
EN_AGE_COMPARED = frozenset({"younger", "older"})
EN_PERSON_WORDS = frozenset({"child", "children", "kid", "kids", "people", "adults", "adult", "anyone", "those",
                             "persons", "pupils", "students", "visitors", "passengers", "residents", "members",
                             "seniors", "guests", "everyone", "customers", "users", "infants", "babies", "toddlers",
                             "teenagers", "youngsters", "patients", "applicants", "drivers", "riders", "swimmers"})

# Word pairs right after a quantity that make it a bound: "orders of £75 or more", "children 5 and under".
POST_BOUND_PHRASES: dict[str, dict[tuple[str, str], str]] = {
    EN: {("or", "more"): "min", ("or", "over"): "min", ("or", "above"): "min", ("and", "over"): "min",
         ("and", "above"): "min", ("or", "less"): "max", ("or", "under"): "max", ("or", "fewer"): "max",
         ("or", "below"): "max", ("and", "under"): "max", ("and", "below"): "max"},
    PL: {},
    # "už 40 eurų ar daugiau", "vaikai 6 metų ir jaunesni"
    LT: {("ar", "daugiau"): "min", ("ir", "daugiau"): "min", ("ar", "maziau"): "max",
         ("ir", "maziau"): "max", ("ir", "jaunesni"): "max", ("ir", "jaunesniems"): "max", ("ir", "vyresni"): "min",
         ("ir", "vyresniems"): "min"},
}

# A notice period: a duration right before these words is time ahead of something ("24 godziny wcześniej",
# "2 days before"), and a deadline's bound before it ("najpóźniej", "no later than", "until", "iki") makes it
# a least time ahead, not a most.
LEAD_TIME_AFTER: dict[str, set[str]] = {
    EN: {"before", "beforehand", "ahead", "prior", "earlier"},
    PL: {"wczesniej", "przed", "naprzod"},
    LT: {"anksciau", "pries"},
}
DEADLINE_BOUND_WORDS: dict[str, set[str]] = {
    EN: {"until", "later", "by"},
    PL: {"najpozniej", "pozniej"},
    LT: {"veliau", "velausiai", "iki"},
}

# --- what a price is for: "£12 per day", "25 zł za osobę", "39 € per mėnesį", "8 € asmeniui" ---------------
# The word before the unit, the words skipped between ("za każdy produkt"), and the unit words.
RATE_OPENERS = {EN: {"per", "a", "an", "each", "/"}, PL: {"za", "na", "/", "od"}, LT: {"per", "uz", "/", "kas"}}
RATE_SKIPPED = {"every", "each", "one", "kazdy", "kazda", "kazde", "kazdego", "jeden", "jedna", "jedno",
                "kiekviena", "kiekvienas", "viena", "vienas", "person", "osobe", "asmeni"}
_RATE_UNITS = {
    "hour": ["hour", "hr", "h", "godzine", "godz", "godzina", "valanda", "val"],
    "day": ["day", "dzien", "dobe", "doba", "diena", "para"],
    "night": ["night", "noc", "nakti"],
    "week": ["week", "tydzien", "savaite"],
    "month": ["month", "miesiac", "mies", "msc", "menesi"],
    "year": ["year", "annum", "rok", "metus"],
    "person": ["person", "head", "osobe", "osoba", "osoby", "asmeni"],
    "item": ["item", "product", "piece", "unit", "sztuke", "szt", "produkt", "przedmiot", "preke", "vieneta"],
    "order": ["order", "zamowienie", "uzsakyma"],
    "parcel": ["parcel", "package", "shipment", "paczke", "przesylke", "siunta"],
    "way": ["way"],
}
# The price's own name after its amount, before what it is for: "15 € mokestis už naktį".
PRICE_NOUNS_AFTER: dict[str, set[str]] = {LT: {"mokestis", "mokesti", "mokescio", "suma", "kaina"}}
RATE_UNITS: dict[str, str] = {word: rate for rate, words in _RATE_UNITS.items() for word in words}
# A price's rate said by its subject rather than after it: "the annual subscription is £45", "metinis abonementas".
RATE_ADJECTIVES: dict[str, dict[str, set[str]]] = {
    EN: {"year": {"annual", "yearly"}, "month": {"monthly"}, "week": {"weekly"}, "day": {"daily"},
         "hour": {"hourly"}, "night": {"nightly"}},
    PL: {"year": {"roczny", "roczna", "roczne", "rocznego", "rocznej", "rocznie"},
         "month": {"miesieczny", "miesieczna", "miesieczne", "miesiecznego", "miesiecznej", "miesiecznie"},
         "week": {"tygodniowy", "tygodniowa", "tygodniowe"}, "day": {"dzienny", "dzienna", "dzienne", "dobowy", "dobowa"},
         "hour": {"godzinowy", "godzinowa"}},
    LT: {"year": {"metinis", "metine", "metinio", "metines", "metinu"},
         "month": {"menesinis", "menesine", "menesinio", "menesines"},
         "week": {"savaitinis", "savaitine"}, "day": {"dieninis", "dienine"}},
}
# One word that says the rate itself: "monthly", "rocznie", "asmeniui".
RATE_ADVERBS = {
    "hourly": "hour", "daily": "day", "nightly": "night", "weekly": "week", "monthly": "month", "yearly": "year",
    "annually": "year", "godzinowo": "hour", "dziennie": "day", "tygodniowo": "week", "miesiecznie": "month",
    "rocznie": "year", "asmeniui": "person", "menesiui": "month", "metams": "year", "parai": "day",
    "dienai": "day", "valandai": "hour", "savaitei": "week", "nakciai": "night",
}

# --- how often: "twice a week", "7 dni w tygodniu", "every other week", "kas dvi savaites", "kasdien" --------------
# A frequency is read as times per day. Periods in days (weekdays are not periods here: "every Wednesday" is
# a day of its own, which the weekday words say).
FREQUENCY_PERIODS: dict[str, dict[str, float]] = {
    EN: {"day": 1, "days": 1, "week": 7, "weeks": 7, "fortnight": 14, "month": 30.4, "months": 30.4,
         "year": 365, "years": 365},
    PL: {"dzien": 1, "dnia": 1, "dni": 1, "dziennie": 1, "tydzien": 7, "tygodniu": 7, "tygodnie": 7, "tygodni": 7,
         "tygodnia": 7, "miesiac": 30.4, "miesiacu": 30.4, "miesiace": 30.4, "miesiecy": 30.4, "rok": 365,
         "roku": 365, "lata": 365, "lat": 365},
    LT: {"diena": 1, "dienas": 1, "dienu": 1, "savaite": 7, "savaites": 7, "savaiciu": 7, "menesi": 30.4,
         "menesius": 30.4, "menesiu": 30.4, "metus": 365, "metu": 365},
}
# "a week", "per week", "w tygodniu", "na tydzień", "per savaitę"; "in" ("three times in a month").
FREQUENCY_PER = {EN: {"a", "an", "per", "each", "every", "in"}, PL: {"w", "na", "co"}, LT: {"per", "i"}}
FREQUENCY_TIMES = {EN: {"times"}, PL: {"razy", "raz"}, LT: {"kartus", "kartu", "karta", "kartais"}}
# Number words that are already a count of times ("once", "twice", "kartą"; Polish "raz" is a word, not a number).
FREQUENCY_ONCE = {EN: {"once", "twice", "thrice"}, PL: {"raz"}, LT: {"karta"}}
FREQUENCY_EVERY = {EN: {"every", "each"}, PL: {"co", "kazdego", "kazdy", "kazda", "kazdej", "kazde"},
                   LT: {"kas", "kiekviena", "kiekvienas"}}
FREQUENCY_OTHER = {EN: {"other", "second", "alternate"}, PL: {"drugi", "druga", "drugie", "drugiego"},
                   LT: {"antra", "antras", "antrus"}}
# "every Wednesday", "co drugą środę", "kas antrą trečiadienį": once a week (or every other week) on that day;
# the day's word stays a word of its own, so "every Tuesday" does not state "every Wednesday".
FREQUENCY_WEEKDAYS = {
    EN: {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"},
    PL: {"poniedzialek", "wtorek", "srode", "czwartek", "piatek", "sobote", "niedziele"},
    LT: {"pirmadieni", "antradieni", "treciadieni", "ketvirtadieni", "penktadieni", "sestadieni", "sekmadieni"},
}
# "n days a week" ("seven days a week", "7 dni w tygodniu", "septynias dienas per savaitę")
FREQUENCY_DAY_WORDS = {EN: {"days", "day"}, PL: {"dni", "dzien"}, LT: {"dienas", "dienu", "diena"}}
FREQUENCY_WEEK_WORDS = {EN: {"week"}, PL: {"tygodniu", "tydzien"}, LT: {"savaite"}}
# One word that says how often (times per day): "collected weekly". Before a noun it names a kind ("a weekly
# pass", "the daily rate") and after a price it is the price's rate ("£5 daily"): neither is read as how often.
FREQUENCY_WORDS: dict[str, dict[str, float]] = {
    EN: {"daily": 1, "weekly": 1 / 7, "fortnightly": 1 / 14, "biweekly": 1 / 14, "monthly": 1 / 30.4},
    PL: {"codziennie": 1, "cotygodniowo": 1 / 7, "comiesiecznie": 1 / 30.4},
    LT: {"kasdien": 1, "kasdiena": 1},
}

RANGE_JOINERS = {"to", "-", "–", "—", "and", "do", "a", "until", "till", "i", "iki", "ir"}
RANGE_OPENERS = {"between", "from", "od", "miedzy", "pomiedzy", "nuo", "tarp"}

# --- free of charge = a price of zero -------------------------------------------------------
FREE_WORDS = {"free", "bezplatnie", "bezplatny", "bezplatna", "bezplatne", "bezplatnego", "bezplatnej",
              "darmowa", "darmowy", "darmowe", "darmowej", "darmowego", "nieodplatnie",
              "nieodplatny", "nieodplatna", "gratis", "complimentary",
              "nemokamai", "nemokamas", "nemokama", "nemokami", "nemokamos", "nemokamo", "nemokamu", "veltui"}
FREE_PHRASES = [("free", "of", "charge"), ("at", "no", "cost"), ("at", "no", "extra", "cost"),
                ("no", "charge"), ("za", "darmo"), ("costs", "nothing"), ("cost", "nothing"),
                ("costs", "you", "nothing"), ("cost", "you", "nothing"), ("costs", "us", "nothing"),
                ("no", "extra", "charge"), ("no", "additional", "charge"), ("no", "additional", "cost"),
                ("at", "no", "additional", "cost"), ("free", "of", "cost"), ("without", "any", "charge"),
                ("for", "free"), ("free", "for"), ("nic", "nie", "kosztuje"), ("nic", "nie", "kosztuja"),
                ("nieko", "ne", "kainuoja"), ("without", "paying"), ("without", "charge"), ("without", "payment"),
                ("bez", "oplaty"), ("bez", "oplat"), ("be", "mokescio"),
                # Lithuanian "does not pay" / "need not pay" (the tokeniser splits "nemoka" into "ne" "moka"):
                # "vaikai už bilietą nemoka", "už pristatymą mokėti nereikia", "nieko nemoka"
                ("nieko", "ne", "moka"), ("nieko", "ne", "moki"), ("ne", "moka"), ("ne", "moki"), ("ne", "mokate"),
                ("moketi", "ne", "reikia"), ("ne", "reikia", "moketi"), ("sumoketi", "ne", "reikia"),
                ("ne", "reikia", "sumoketi"), ("apmoketi", "ne", "reikia"), ("ne", "reikia", "apmoketi"),
                ("moketi", "ne", "reikes"), ("ne", "reikes", "moketi"), ("papildomai", "moketi", "ne", "reikia"),
                ("papildomai", "ne", "reikia", "moketi"), ("papildomai", "ne", "mokama"),
                # "be jokio mokesčio", "jokio mokesčio netaikoma", "neapmokestinami" (no fee is charged)
                ("be", "jokio", "mokescio"), ("be", "jokiu", "mokesciu"), ("jokio", "mokescio", "ne", "taikoma"),
                ("jokiu", "mokesciu", "ne", "taikoma"), ("mokestis", "ne", "taikomas"), ("mokesciu", "ne", "taikoma"),
                ("ne", "apmokestinami"), ("ne", "apmokestinama"), ("ne", "apmokestinamas"), ("ne", "apmokestinamos"),
                # "jokio antkainio nėra", "be antkainio": no surcharge
                ("jokio", "antkainio", "nera"), ("jokiu", "antkainiu", "nera"), ("antkainio", "nera"),
                ("be", "antkainio"), ("be", "jokio", "antkainio"), ("be", "priemokos"), ("priemokos", "nera"),
                # Polish says "you pay nothing" with negative concord ("nic nie zapłacisz", "nigdy nie trzeba
                # płacić": one negation): the phrase is the price, its "nie" no negation of the sentence
                *[(*lead, verb) for lead in (("nie",), ("nic", "nie"), ("nigdy", "nie"))
                  for verb in ("placi", "placisz", "placa", "placimy", "zaplaci", "zaplacisz", "zaplaca", "zaplacimy")],
                *[(*lead, *extra, verb) for lead in (("nie", "trzeba"), ("nic", "nie", "trzeba"), ("nigdy", "nie", "trzeba"))
                  for extra in ((), ("dodatkowo",), ("za", "nie"), ("za", "nic"))
                  for verb in ("placic", "zaplacic", "doplacac", "doplacic")],
                # "nie płacisz dodatkowo", "dodatkowo nie zapłacisz": no extra charge
                *[(*lead, verb) for lead in (("nie", "trzeba", "dodatkowo"), ("dodatkowo", "nie"))
                  for verb in ("placisz", "zaplacisz", "placi", "zaplaci", "placa", "zaplaca")],
                # "nie pobieramy (żadnych) opłat", "nigdy nie pobieramy opłat" (negative concord: one negation)
                *[(*lead, *take, *no, fee) for lead in (("nie",), ("nigdy", "nie"))
                  for take in (("pobieramy",), ("pobiera", "sie"), ("pobieraja",))
                  for no in ((), ("zadnych",), ("zadnej",)) for fee in ("oplat", "oplaty", "doplat")], ("bez", "doplaty"), ("bez", "doplat"), ("bez", "dodatkowych", "oplat"),
                ("bez", "dodatkowej", "oplaty"), ("bez", "placenia"),
                # a refund "bez potrąceń" (with nothing kept back) costs nothing
                ("bez", "potracen"), ("bez", "potracenia"), ("bez", "zadnych", "potracen"),
                # included in the price: no extra charge ("dostawa jest wliczona w cenę", "śniadanie w cenie")
                *[(included, "w", price) for included in ("wliczona", "wliczony", "wliczone", "wliczana",
                                                          "wliczany", "wliczane", "zawarta", "zawarty", "zawarte")
                  for price in ("cene", "cenie", "koszt")],
                ("w", "cenie")]
# "Paid" with no amount: a price above zero, so it contradicts "free" and is stated by any price.
PAID_WORDS = {"chargeable", "platny", "platna", "platne", "platnego", "odplatny", "odplatna", "odplatne",
              "odplatnie", "mokamas", "mokami", "mokamos"}
# "Mokama papildomai" (paid on top): a price above zero ("mokama" alone is any price, a synonym of "kaina").
PAID_PHRASES_LT_EXTRA = [("mokama", "papildomai"), ("moka", "papildomai")]
# "You have to pay" with no amount after it: a price above zero, as "paid" ("Za wydanie trzeba zapłacić"
# against "Wydanie jest bezpłatne").
PAID_PHRASES = [("must", "pay"), ("have", "to", "pay"), ("has", "to", "pay"), ("need", "to", "pay"),
                ("needs", "to", "pay"), ("trzeba", "zaplacic"), ("nalezy", "zaplacic"), ("trzeba", "placic"),
                ("nalezy", "uiscic"), ("reikia", "sumoketi"), ("reikia", "moketi"), ("turite", "sumoketi"),
                ("privalote", "sumoketi"), ("reikes", "sumoketi"), ("reikes", "moketi"), ("tenka", "moketi"),
                ("tenka", "sumoketi"), ("teks", "moketi"), ("teks", "sumoketi"), ("turi", "sumoketi"),
                ("turi", "moketi"), *PAID_PHRASES_LT_EXTRA]
# "Odsyłasz na własny koszt", "na koszt klienta": the customer pays, no amount; whatever words follow
# ("na własny koszt w ciągu 14 dni"), unless a number does.
PL_OWN_COST_PHRASES = [("na", "wlasny", "koszt"), ("na", "wlasny", "rachunek"), ("na", "twoj", "koszt"),
                       ("na", "koszt", "klienta"), ("na", "koszt", "kupujacego"), ("na", "koszt", "zamawiajacego")]
PAID_PHRASES += PL_OWN_COST_PHRASES
# "trzeba dodatkowo zapłacić", "trzeba dopłacić" with no amount: a price above zero
PAID_PHRASES += [(must, *extra, verb) for must in ("trzeba", "nalezy") for extra in ((), ("dodatkowo",))
                 for verb in ("zaplacic", "placic", "doplacic", "doplacac") if extra or verb.startswith("dop")]
# "Included in the price" is no extra charge, a price of zero beside the price it is included in:
# "Sauna įskaičiuota į bilieto kainą", "Į kainą įeina pusryčiai" (a Lithuanian word read with "į ... kainą").
LT_INCLUDED_WORDS = {"iskaiciuota", "iskaiciuotas", "iskaiciuoti", "iskaiciuotos", "ieina", "ieis"}
LT_PRICE_WORDS = {"kaina", "kainas"}
# A Polish unit with no number is one of it ("daje rok gwarancji", "najpóźniej tydzień"): these singular forms,
# unless a word before makes them something else ("za miesiąc" / "na rok" a rate, "co tydzień" a frequency,
# "cały rok", "nowy rok", "w tym roku"), or a number follows ("rok 2025").
PL_ONE_UNIT = {"rok", "tydzien", "miesiac", "dobe", "godzine"}
# ... and after "w ciągu" the genitive ("w ciągu doby", "w ciągu tygodnia"; not "dnia": "during the day")
PL_ONE_UNIT_WITHIN = {"roku", "tygodnia", "miesiaca", "doby", "godziny"}
PL_ONE_UNIT_NOT_AFTER = {"za", "na", "co", "raz", "razy", "caly", "nowy", "ten", "tym", "kazdy", "kolejny", "nastepny",
                         "ostatni", "przyszly", "biezacy", "poprzedni", "zeszly", "pierwszy", "drugi", "jeden", "jedna",
                         "jego", "dany", "szkolny", "akademicki", "kalendarzowy", "/"}
# Lithuanian active participles opening a clause that describes the subject ("Vaikai, neužimantys atskiros
# vietos, nemoka", "nenurodydamas priežasties"): folded word endings, read on words of seven letters or more.
LT_PARTICIPLE_ENDINGS = ("antys", "antis", "antiems", "anciu", "ancios", "ancius", "damas", "dami", "dama", "damos")
# Generic Lithuanian person words that add nothing after an age ("iki 25 metų klientams", "nuo 65 metų asmenims").
LT_AGED_PERSON_WORDS = frozenset({"klientams", "klientai", "klientu", "asmenims", "asmenys", "asmenu", "zmonems",
                                  "zmones", "zmoniu", "pirkejams", "pirkejai", "vartotojams", "vartotojai"})
# The Lithuanian words a claim names the page's reader by ("Pirkėjas gali grąžinti prekę") where the page speaks to
# them ("Prekę galite grąžinti"): said by a sentence with a second-person verb or "jūs" (folded words).
LT_ADDRESSEE_WORDS = frozenset({"pirkejas", "pirkejai", "pirkejui", "pirkejams", "pirkejo", "pirkeju", "klientas",
                                "klientai", "klientui", "klientams", "kliento", "klientu", "vartotojas", "vartotojai",
                                "vartotojui", "vartotojams", "vartotojo", "vartotoju"})
LT_YOU_WORDS = frozenset({"jus", "jums", "jusu", "jumis"})
# The English words a claim names the page's reader by ("Customers get a text the evening before") where the page
# speaks to them ("You will receive a text"): said by a sentence with "you" in which no other party acts (staff, a
# courier, "we": "Store staff must check your receipt" is not the customers' doing).
EN_ADDRESSEE_WORDS = frozenset({"customer", "customers", "buyer", "buyers", "shopper", "shoppers", "client", "clients",
                                "consumer", "consumers"})
EN_YOU_WORDS = frozenset({"you"})
EN_OTHER_PARTY_WORDS = frozenset({"staff", "employee", "employees", "team", "courier", "couriers", "driver",
                                  "drivers", "engineer", "engineers", "we", "our", "us", "seller", "retailer",
                                  "shop", "store", "company", "agent", "agents", "member", "members"})
LT_YOU_ENDINGS = ("ite", "ate", "ote")
# A Lithuanian unit with no number is one of it after "prieš", "per", "bent" ("prieš parą", "per savaitę", "bent
# valandą") and in the dative of a time span ("apribojama metams", "išnuomojama parai"), unless a word before makes
# it another span ("kiekvienam mėnesiui", "tam mėnesiui"). ("Per metus" after a price is its rate, read there.)
LT_ONE_UNIT = frozenset({"para", "savaite", "menesi", "valanda", "pusmeti"})
LT_ONE_UNIT_AFTER = frozenset({"pries", "per", "bent"})
LT_ONE_UNIT_DATIVE = frozenset({"metams", "menesiui", "savaitei", "parai", "pusmeciui"})
LT_ONE_UNIT_NOT_AFTER = frozenset({"kiekvienam", "kiekviena", "kitam", "kitai", "tam", "tai", "ateinanciam",
                                   "ateinanciai", "siam", "siai", "sitam", "sitai", "einamajam"})
# Polish noon and midnight after "do", "od", "o", "przed", "po" ("do północy", "przed południem"): times of day,
# in minutes; midnight ends a day after "do" / "przed" (24:00) and starts one otherwise (0:00). Bare
# "północ" / "południe" are also north and south, so only these forms after these words are read.
PL_CLOCK_WORDS = {"polnocy": 1440, "polnoca": 1440, "poludnia": 720, "poludniem": 720}
PL_CLOCK_BEFORE = {"do", "od", "o", "przed", "po"}
# "Unlimited" is a count with no end: "neribotą kartų skaičių" against "du kartus", "lankytis neribotai"
# against "ne daugiau kaip 12 kartų" (the noun after it, if any, is what is counted).
LT_UNLIMITED_WORDS = {"neribotas", "neribota", "neriboti", "neribotos", "neriboto", "neribotu", "neribotai",
                      "neribotam", "neribotus"}
# Lithuanian "val." after these is a time of day ("nuo 10 iki 19 val.", "atidaromas 6 val."), not hours.
LT_CLOCK_BEFORE = {"nuo", "iki", "atidaromas", "atidaroma", "atidaromi", "uzdaromas", "uzdaroma", "pries", "po"}
# The part of the day after a Lithuanian "val.": "8 val. ryto" is 8 am, "7 val. vakaro" 7 pm.
LT_CLOCK_HALVES = {"ryto": "am", "nakties": "am", "vakaro": "pm", "popiet": "pm"}

# --- polarity --------------------------------------------------------------------------------
NEGATORS: dict[str, set[str]] = {
    EN: {"not", "no", "never", "cannot", "none", "neither", "nor", "non", "nothing", "nobody"},
    PL: {"nie", "nigdy", "brak", "zaden", "zadna", "zadne", "zadnych", "ani"},
    # Lithuanian writes "not" as a prefix ("negalima", "nebeskaiciuojami"): the tokeniser splits it
    # off as "ne" (words.py), so the verb after it is compared like any other.
    # "be" (without): "kainos be PVM" denies "kainos su PVM"
    LT: {"ne", "nera", "niekada", "joks", "jokia", "jokiu", "jokio", "jokios", "nei", "be"},
}
OBLIGATION: dict[str, set[str]] = {
    EN: {"must", "required", "require", "requires", "mandatory", "compulsory", "obligatory", "shall",
         "necessary", "need", "needs", "needed", "have", "has"},  # "have"/"has" only before "to"
    PL: {"musi", "musisz", "musza", "musimy", "musicie", "nalezy", "trzeba", "wymagane", "wymagany",
         "wymagana", "wymaga", "wymagaja", "wymagac", "obowiazkowe", "obowiazkowa", "obowiazkowy",
         "obowiazkowo", "obowiazek", "konieczne", "konieczny", "konieczna", "niezbedne", "niezbedny",
         # "nie potrzebujesz skierowania" = "skierowanie nie jest wymagane"
         "potrzebujesz", "potrzebuje", "potrzebuja", "potrzebujecie", "potrzebne", "potrzebny", "potrzebna",
         "potrzeba"},
    LT: {"reikia", "privaloma", "privalo", "privalote", "privalomas", "privalomi", "butina", "butinas",
         "reikalinga", "reikalingas", "reikalaujama", "turi", "turite", "reikes", "tenka", "teks", "privalu",
         "privalesite", "privales"},
}
PERMISSION: dict[str, set[str]] = {
    # ("permit" and "permits" are not here: on service pages they are mostly the noun, "a parking permit")
    EN: {"may", "can", "could", "allowed", "allow", "allows", "permitted", "able", "accepted", "welcome"},
    PL: {"mozna", "moze", "mozesz", "moga", "mozemy", "wolno", "dozwolone", "dozwolony", "dozwolona",
         "akceptowane", "akceptowany", "akceptowana", "akceptujemy", "mozliwe", "mozliwy", "mozliwa",
         "dopuszczalne"},
    LT: {"galima", "gali", "galite", "galime", "leidziama", "leidziami", "leidziamos", "priimami", "priimamos",
         "priimame", "priimama"},
}
PROHIBITION: dict[str, set[str]] = {
    EN: {"forbidden", "prohibited", "banned", "disallowed", "mustn't"},
    PL: {"zabronione", "zabroniony", "zabroniona", "zakazane", "zakazany", "niedozwolone", "niedozwolony",
         "zakaz"},
    LT: {"draudziama", "draudziami", "uzdrausta", "uzdraustas", "draudimas"},
}
OPTIONAL: dict[str, set[str]] = {
    # "booking is recommended": advised, not required
    EN: {"optional", "voluntary", "recommended", "advised", "advisable", "encouraged"},
    PL: {"opcjonalne", "opcjonalny", "opcjonalna", "dobrowolne", "dobrowolny", "fakultatywne"},
    LT: {"savanoriska", "savanoriskas", "pasirinktinai"},
}
# Words whose meaning is the negative side of a pair ("excludes" = "does not include").
# Polish "bez okazywania legitymacji" (without showing it) against "po okazaniu legitymacji" / "przy okazaniu"
# (upon showing it): the act the passage makes the condition is the one the claim waives.
PL_WITHOUT_ACT = "bez"
PL_UPON_ACT = frozenset({"po", "przy"})
NEGATIVE_CONCEPT: dict[str, set[str]] = {
    EN: {"waived", "excluded", "exclude", "excludes", "closed", "unavailable", "impossible", "refused", "rejected",
         "non-refundable", "nonrefundable", "non-returnable", "nonreturnable", "unable", "shut", "withdrawn", "discontinued", "suspended"},
    PL: {"wylaczone", "wylaczony", "wylaczona", "wylaczeniem", "zamkniete", "zamkniety", "zamknieta",
         "niedostepne", "niedostepny", "niedostepna", "niemozliwe", "niemozliwy", "nieczynne", "nieczynny",
         "bezzwrotna", "bezzwrotny", "bezzwrotne", "bezzwrotnej", "bezzwrotnego"},
    LT: {"uzdaryta", "uzdarytas", "uzdaryti", "neimanoma", "atmetama"},
}

# A list item that opens with a negator and says no verb of its own ("covers defects but not accidental damage,
# liquid spills or wear"): it denies what it inherits from the sentence ("covers"), and so do the items after it.
NEGATED_ITEM_OPENERS: dict[str, frozenset[str]] = {EN: frozenset({"not"}), PL: frozenset(), LT: frozenset()}

# The positive word a negative concept denies, kept as a content word: "it is closed on Sundays" speaks of
# being open on Sundays, negated, so "the shop is open on Sundays" finds it (raw words, stemmed by the judge).
DENIED_CONTENT: dict[str, dict[str, str]] = {
    EN: {"waived": "charge", "closed": "open", "shut": "open", "unavailable": "available", "withdrawn": "available",
         "discontinued": "available", "suspended": "available", "non-refundable": "refund", "nonrefundable": "refund",
         "non-returnable": "returnable", "nonreturnable": "returnable"},
    PL: {"zamkniete": "czynny", "zamkniety": "czynny", "zamknieta": "czynny", "nieczynne": "czynny",
         "nieczynny": "czynny", "niedostepne": "dostepne", "niedostepny": "dostepne", "niedostepna": "dostepne",
         "bezzwrotna": "zwrotna", "bezzwrotny": "zwrotna", "bezzwrotne": "zwrotna", "bezzwrotnej": "zwrotna",
         "bezzwrotnego": "zwrotna"},
    LT: {"uzdaryta": "dirba", "uzdarytas": "dirba", "uzdaryti": "dirba"},
}

# --- a claim without conditions against a passage with one --------------------------------------
# "Tenants are always charged" against "charged only if the damage was deliberate": the claim drops the
# condition the passage sets, so the passage contradicts it.
UNIVERSAL_PHRASES: dict[str, list[tuple[str, ...]]] = {
    EN: [("always",), ("at", "any", "time"), ("any", "reason"), ("without", "exception"), ("in", "all", "cases"),
         ("any",)],
    PL: [("zawsze",), ("nigdy",), ("w", "kazdej", "chwili"), ("w", "kazdym", "przypadku"), ("bez", "wyjatku"),
         ("przy", "kazdym", "zakupie"), ("przy", "kazdym", "zamowieniu"), ("dowolny",), ("dowolnym",),
         ("dowolnej",), ("dowolnego",),
         # everywhere and for everyone: "ważny we wszystkich strefach", "w każdej placówce", "dla wszystkich"
         ("we", "wszystkich"), ("w", "kazdej"), ("w", "kazdym"), ("wszedzie",), ("dla", "wszystkich"),
         ("dla", "kazdego")],
    LT: [("visada",), ("visuomet",), ("bet", "kada"), ("be", "isimciu"), ("bet", "kokiu", "atveju"),
         ("bet", "kuriame"), ("bet", "kurioje"), ("bet", "kuris"), ("bet", "kuri"), ("bet", "kuriuo", "metu")],
}
# Words by which a claim says it holds for all: "free for all orders" drops the passage's "for orders over £60".
UNIVERSAL_WORDS: dict[str, frozenset[str]] = {
    EN: frozenset({"all", "any", "always", "every", "everyone", "regardless"}),
    PL: frozenset({"zawsze", "wszystkie", "wszystkich", "kazde", "kazdego", "kazdej", "kazdym", "dowolne",
                   "dowolnego", "niezaleznie"}),
    LT: frozenset({"visada", "visuomet", "visi", "visiems", "visoms", "visus", "visas", "kiekvienam",
                   "kiekvienas", "kiekviena", "nepriklausomai"}),
}
# Words that open a condition ("If you do not cancel, a fee of £20 is charged"): what the condition denies is
# not denied of the sentence's main part.
CONDITION_FIRST_WORDS: dict[str, frozenset[str]] = {
    EN: frozenset({"if", "when", "unless", "once", "provided"}),
    PL: frozenset({"jesli", "jezeli", "gdy", "kiedy", "chyba"}),
    LT: frozenset({"jei", "jeigu", "kai", "kol", "nebent"}),
}
# Words that open a claim's condition ("If you cannot come, ...", "..., jeśli nie zajmują osobnego miejsca", "Jei
# rezervacijos neatšaukiate, ..."): the condition's negation is its own, and the passage must state the condition.
# ("Unless" and its kin are conditions negated: UNLESS_WORDS / UNLESS_OPENERS.)
CLAIM_CONDITION_OPENERS: dict[str, tuple[tuple[str, ...], ...]] = {
    EN: (("if",), ("when",)),
    PL: (("jesli",), ("jezeli",), ("gdy",), ("kiedy",), ("o", "ile")),
    LT: (("jei",), ("jeigu",), ("kai",), ("kol",)),
}
RESTRICTION_WORDS: dict[str, set[str]] = {
    EN: {"only", "unless", "except", "excluding", "provided", "if"},
    PL: {"tylko", "wylacznie", "chyba", "wyjatkiem", "oprocz", "warunkiem", "jesli", "jezeli"},
    LT: {"tik", "isskyrus", "nebent", "isimtis", "jei", "jeigu"},
}

# Words that open a condition on the rest of their sentence ("bezpłatna, jeśli zdecydujesz się na naprawę"): a
# price or discount so limited does not back a claim that leaves the condition out. Only Polish so far.
CONDITION_PHRASES: dict[str, list[tuple[str, ...]]] = {
    PL: [("jesli",), ("jezeli",), ("gdy",), ("o", "ile"), ("pod", "warunkiem")],
}
# "Free for the first two hours", "przez pierwsze 3 godziny", "pirmas 2 valandas": a price that holds only
# for a first stretch of time or of items.
FIRST_WORDS: dict[str, set[str]] = {
    EN: {"first", "initial", "opening"},
    PL: {"pierwsze", "pierwszych", "pierwszy", "pierwsza", "pierwszego", "pierwszej", "poczatkowe"},
    LT: {"pirmas", "pirmasias", "pirmaja", "pirmus", "pirmosios", "pirmuosius", "pirmasis", "pirmoji"},
}

# A passage sentence that only says a thing may happen ("vans may be charged", "może zostać obciążony",
# "gali būti skaičiuojami") does not back a claim that it does happen: the span must carry the claim's
# own modal. Folded words; a pair is a phrase.
HEDGE_PHRASES: dict[str, list[tuple[str, ...]]] = {
    EN: [("may", "be"), ("might", "be"), ("could", "be"), ("may", "apply"), ("may", "charge")],
    PL: [("moze", "zostac"), ("moga", "zostac"), ("moze", "byc"), ("moga", "byc"), ("moze", "pobrac"),
         ("moze", "naliczyc"), ("mozemy", "pobrac"), ("mozemy", "naliczyc")],
    LT: [("gali", "buti")],
}
HEDGE_CLAIM_WORDS: dict[str, set[str]] = {
    EN: {"may", "might", "could", "can", "possibly", "possible"},
    PL: {"moze", "moga", "mozemy", "mozna", "mozliwe", "ewentualnie"},
    LT: {"gali", "galima", "galimi", "galimas", "galbut"},
}
# Words that narrow what a passage sentence is about to one variant ("a temporary passport", "unworn
# shoes"): a span with one of these does not back a claim that leaves it out, which speaks of every kind.
NARROWING_WORDS: dict[str, set[str]] = {
    EN: {"temporary", "unworn", "unused", "unopened", "used", "damaged", "refurbished", "digital", "printed"},
    PL: {"tymczasowy", "tymczasowa", "tymczasowe", "tymczasowego", "nieuzywany", "nieuzywane", "nieuzywana",
         "nieotwarty", "nieotwarte", "uzywany", "uzywane", "uszkodzony", "uszkodzone", "cyfrowy", "cyfrowa",
         "cyfrowe", "drukowany", "drukowana"},
    LT: {"laikinas", "laikinasis", "laikina", "laikinoji", "nenaudotas", "nenaudota", "nenaudotus", "naudotas",
         "naudota", "sugadintas", "sugadinta", "skaitmeninis", "skaitmenine"},
}

# Words after which a narrowing word is the verb, not a variant: "can be used on any train" is not "used tickets".
NARROWING_VERB_AFTER: dict[str, frozenset[str]] = {EN: frozenset({"be", "been", "being"}), PL: frozenset(),
                                                   LT: frozenset()}

# Words by which a claim says a thing holds wherever or whichever ("at any office", "w dowolnym urzędzie",
# "bet kuriame skyriuje"): the span must say so too (any of these or of UNIVERSAL_WORDS), or it speaks of
# one place or case only ("collected at the office where you applied").
ANY_SCOPE_WORDS: dict[str, set[str]] = {
    EN: {"any", "anywhere", "whichever"},
    PL: {"dowolny", "dowolna", "dowolne", "dowolnym", "dowolnej", "dowolnego", "kazdym"},
    LT: {"bet"},  # "bet kuris" / "bet kur"; alone "bet" is "but", so a span's "bet" is enough
}

# Words that open the condition a statement holds under ("free if the fault is covered by the warranty"): a span
# with one does not back a claim that leaves the condition out.
CONDITION_OPENERS: dict[str, set[str]] = {EN: {"if", "provided", "providing"}, PL: set(), LT: set()}

# Words after which the rest of the sentence is the case where its statement does not hold: "Return postage is
# paid by the customer unless the item arrived damaged" says the customer does not pay for a damaged item.
UNLESS_WORDS: dict[str, set[str]] = {EN: {"unless"}, PL: set(), LT: set()}

# Words that open a relative clause ("sprzętu, który został zainstalowany"): the clause belongs to the noun
# before it, and so does that noun's negation ("Zwrot nie dotyczy sprzętu, który ..."). Only Polish so far.
RELATIVE_WORDS: dict[str, set[str]] = {
    PL: {"ktory", "ktora", "ktore", "ktorych", "ktorego", "ktorej", "ktorym", "ktorymi", "ktorzy"},
}
# "Unless X" is "if not X": a segment these words open states X's condition negated ("chyba że produkt jest
# wadliwy" = "o ile produkt nie jest wadliwy"). Read when a statement is compared, not for a value inside the
# segment ("chyba że wykupisz rozszerzenie za 2 zł": the extension does cost 2 zł). Only Polish so far.
UNLESS_OPENERS: dict[str, set[str]] = {PL: {"chyba"}}
# Words that open an exception to the rest of their sentence: "returns within 14 days, except swimwear".
EXCEPTION_WORDS: dict[str, set[str]] = {
    EN: {"except", "excluding", "apart", "unless"},
    PL: {"wyjatkiem", "oprocz", "poza", "wylaczeniem", "chyba"},
    LT: {"isskyrus", "isskyrti", "nebent"},
}

# The exception words after which what a sentence names is not under its rule, for a claim's statement: "except",
# "z wyjątkiem", "išskyrus" (not "poza" / "oprócz" / "apart", which also say "outside" and "besides").
EXCEPT_CUT_WORDS: dict[str, set[str]] = {EN: {"except", "excluding"}, PL: {"wyjatkiem", "wylaczeniem"},
                                          LT: {"isskyrus"}}

# --- words that carry no identity of a quantity ------------------------------------------------
STOPWORDS: dict[str, set[str]] = {
    EN: set(
        """a an the this that these those it its it's is are was were be been being am do does did
        doing of in on at to for with by from as into onto about per each every any all most some
        and or but if then than so such our your their my his her we you they he she i us them me
        there here which who whom whose what when where how also only just very usually normally
        generally typically currently please will would should get gets got getting make makes
        made via same other another more less up out off just yet still even ever again
        one's s t within under over above below after before until between during since via etc
        approximately roughly stays remains remain give gives giving given gave people anyone receive
        receives""".split()
    ),
    PL: set(
        """a i oraz w we na z ze do od o u po przy za przez dla bez pod nad przed miedzy jest sa byc
        byl byla bylo beda bedzie to ten ta te tego tej tych tym ktory ktora ktore ktorych jak
        jako tak takze rowniez tez tylko juz jeszcze czy lub albo ale sie sobie nas nam was wam
        ich jego jej go mu je nim niej mam masz ma mamy macie maja zwykle obecnie prosze kazdy
        kazda kazde wszystkie wszystkich ok okolo r wynosi dopiero dokonac dokonania dokonuje
        co jesli jezeli gdy kiedy wtedy nawet ile gdzie aby zeby czyli np itp itd
        przysluguje przysluguja chyba
        kazdym kazdej kazdego kazdych dowolny dowolna dowolne dowolnym dowolnej dowolnego
        zostanie zostana zostaje zostaja zostal zostala zostalo zostaly zostac
        ktorej ktorego ktoremu ktorym ktorzy ktorymi ktorzy
        zrobic zrobisz zrobi zrobimy zrobia robic robisz okres okresu okresie okresem
        miec mial miala mieli""".split()
    ),
    LT: set(
        """ir ar bei o bet taciau kad kaip kai jei jeigu tik yra buvo bus buti i is su be per prie po apie
        uz nuo iki del pagal tarp ant pas to tai tas ta tie tos sis si sie jo jos ju mes jus mus jums
        mums jusu musu savo kuris kuri kurie kurios kuriu kuriam kurias kuriuos kurio kuria kuriems kurioje kuriame taip pat jau dar arba visi visos
        visu visiems kiekvienas kiekviena m d val kartu taip pat paprastai siuo siuo metu mazdaug
        apytiksliai ji jis jie jam jai jiems joms ja jas juos ji jame joje net papildomai atskirai paciame pacioje kada kuriuo
        atliekama atliekamas atliekami atliekamos atlieka atliekame vykdoma vykdomas vykdomi budu tada""".split()
    ),
}
# Bound words are read as a quantity's bound ("at least 150 zł" = "od 150 zł"); as content words they
# would be asked of a passage that says the same bound in other words.
BOUND_ONLY_WORDS: dict[str, set[str]] = {
    EN: {"least"},
    PL: {"najmniej", "przynajmniej", "najwyzej", "maksymalnie", "minimum", "najpozniej", "najdluzej", "dluzej", "ponad", "ciagu",
         "powyzej", "ponizej"},
    LT: {"maziausiai", "bent", "daugiausia", "daugiau", "maziau", "ilgiau", "nei", "virsija", "virsys", "virsijanti",
         "virsijantiems", "virsijancioms", "virsijancio", "jaunesni", "jaunesnis", "jaunesniems", "jaunesnes",
         "vyresni", "vyresnis", "vyresniems", "vyresnes"},
}
for _bound_lang, _bound_words in BOUND_ONLY_WORDS.items():
    STOPWORDS[_bound_lang] |= _bound_words
# "only" narrows a claim; it must be found in the passage for the claim to be backed.
# (It is deliberately not a stopword.)

# --- contrast groups ---------------------------------------------------------------------------
# Words that name alternatives of one kind: a claim about the child ticket is not about the
# adult ticket. Raw words; the judge stems them with the language's stemmer.
CONTRAST_GROUPS: list[set[str]] = [
    {"adult", "adults", "child", "children", "kid", "kids", "senior", "seniors", "student", "students",
     "infant", "infants", "youth", "teen", "teenager", "baby", "concession", "reduced",
     "dorosly", "dorosli", "doroslych", "dziecko", "dzieci", "dziecka", "seniorzy", "seniorow",
     "studenci", "studentow", "ulgowy", "ulgowe", "ulgowego", "normalny", "normalne",
     "normalnego", "emeryt", "emeryci", "niemowle", "mlodziez",
     "suaugusiajam", "suaugusiojo", "suaugusiems", "suauge", "vaikui", "vaiko", "vaikams", "vaikai",
     "senjorams", "senjorai", "studentams", "studentai", "moksleiviams"},
    {"first", "second", "third", "last", "final", "initial", "pierwszy", "pierwsza", "pierwszej",
     "pierwszym", "drugi", "druga", "drugiej", "drugim", "trzeci", "trzecia", "ostatni", "ostatnia",
     "ostatniej", "pirmas", "pirmasis", "pirmoji", "antras", "antrasis", "antroji", "trecias", "paskutinis"},
    {"standard", "express", "economy", "priority", "premium", "standardowa", "standardowy",
     "ekspresowa", "ekspresowy", "priorytetowa", "priorytetowy", "ekonomiczna", "ekonomiczny",
     "large", "small", "medium", "duza", "duzy", "mala", "maly", "srednia", "standartinis", "standartine",
     "skubus", "skubiai", "ekspresinis"},
    {"weekday", "weekdays", "weekend", "weekends", "saturday", "saturdays", "sunday", "sundays",
     "monday", "tuesday", "wednesday", "thursday", "friday", "holiday", "holidays",
     "sobota", "soboty", "niedziela", "niedziele", "niedziel", "swieta", "swieto",
     "poniedzialek", "poniedzialki", "wtorek", "wtorki", "sroda", "srody", "czwartek", "czwartki", "piatek",
     "piatki", "powszedni", "powszednie", "powszednich", "pirmadieni", "antradieni", "treciadieni", "ketvirtadieni", "penktadieni",
     "savaitgaliais", "sestadieniais", "sestadieni", "sekmadieniais", "sekmadieni", "pirmadieniais",
     "antradieniais", "treciadieniais", "ketvirtadieniais", "penktadieniais", "sventems", "svenciu"},
    {"domestic", "international", "national", "abroad", "krajowa", "krajowy", "krajowe",
     "zagraniczna", "zagraniczny", "zagraniczne", "miedzynarodowa", "miedzynarodowy",
     # Lithuanian delivery destinations: "Lietuvoje 3 €, į Latviją ir Estiją 9 €"
     "lietuvoje", "lietuva", "lietuvos", "lietuvai", "latvija", "latvijoje", "latvijos", "latvijai", "estija",
     "estijoje", "estijos", "estijai", "lenkija", "lenkijoje", "lenkijos", "lenkijai", "uzsieni", "uzsienyje",
     "uzsienio", "uzsieniui", "tarptautinis", "tarptautine", "tarptautinio", "tarptautines"},
    {"arrive", "arrives", "arrival", "depart", "departs", "departure", "leave", "leaves",
     "przyjazd", "przyjezdza", "odjazd", "odjezdza", "wyjazd", "przylot", "wylot"},
    {"checkin", "check-in", "checkout", "check-out", "zameldowanie", "wymeldowanie", "registracija", "deregistration"},
    {"buyer", "customer", "customers", "seller", "retailer", "shop", "store", "merchant",
     "kupujacy", "kupujacego", "klient", "klienta", "sprzedawca", "sprzedawcy", "sklep",
     "pirkejas", "pirkejo", "parduotuve", "pardavejas", "pardavejo"},
    # ways of delivery: "courier delivery costs £4.99" is not about the locker
    {"courier", "couriers", "locker", "lockers", "kurier", "kurierem", "kuriera", "kurierska", "kurierski",
     "kurjeris", "kurjerio", "kurjeriu", "pastomatas", "pastomata",
     "pastomatu", "pastomate"},
    # a price before or after tax
    {"net", "gross", "netto", "brutto", "neto", "bruto"},
    # the event a time limit runs from: "within 14 days of delivery" is not "of receiving the return"
    {"delivery", "purchase", "receiving", "receipt", "invoice", "doreczenia", "zakupu", "otrzymania",
     "odebrania", "zlozenia", "pristatymo", "pirkimo", "gavimo"},
    # where a thing is served or done on the premises: breakfast "in the restaurant" is not "in the rooms"
    {"restaurant", "room", "rooms", "bar", "lobby", "reception", "restauracja", "restauracji", "pokoj", "pokoju",
     "pokojach", "recepcja", "recepcji", "restoranas", "restorane", "kambarys", "kambaryje", "kambariuose",
     "registratura", "registraturoje"},
    {"monthly", "annual", "yearly", "weekly", "daily", "miesieczny", "miesieczna", "roczny", "roczna",
     "tygodniowy", "dzienny", "dzienna", "metine", "metinis", "menesine", "menesinis"},
]
# The ways a service is done (index CHANNEL_GROUP): "apply online" is not "apply in person". A statement
# is contradicted by another way only where the passage makes that way exclusive ("only in person",
# "must be booked online"). Polish and Lithuanian ways reach these words through SYNONYMS (_CHANNEL_WORDS).
# a film's dimensions: the 3D showing is not the 2D one (appended: the groups above are named by index)
CONTRAST_GROUPS.append({"2d", "3d", "4d"})
CONTRAST_GROUPS.append({"online", "person", "phone", "telephone", "post", "email", "e-mail"})
CHANNEL_GROUP = len(CONTRAST_GROUPS) - 1
WEEKDAY_GROUP = 3  # "on Tuesdays only" excludes Fridays as "only in person" excludes online
# Words that make what their sentence allows the only way ("can only be applied for in person").
ONLY_WORDS: dict[str, set[str]] = {
    EN: {"only", "exclusively", "solely"},
    PL: {"tylko", "wylacznie", "jedynie"},
    LT: {"tik", "tiktai", "vien", "isimtinai"},
}
# Parts of the day: "only in the evenings" is not said of what is done "every morning".
DAY_PART_WORDS: dict[str, set[str]] = {
    EN: {"morning", "mornings", "afternoon", "afternoons", "evening", "evenings", "night", "nights", "overnight"},
    PL: set(),
    LT: set(),
}
# Words that order two events ("refunds are issued after we receive the parcel"); each pair's words are
# each other's opposite. Before a number they are a quantity's bound, which the quantities compare.
ORDER_WORDS: dict[str, dict[str, str]] = {
    EN: {"before": "after", "after": "before"},
    PL: {"przed": "po", "po": "przed"},
    LT: {"pries": "po", "po": "pries"},
}

# How often something recurs: "every" / "weekly" against "every other" / "fortnightly" (a claim's "every
# Wednesday" is contradicted by "every other Wednesday"). Numbers written as words are number tokens, so
# "every two weeks" is not among these phrases.
EVERY_WORDS: dict[str, set[str]] = {
    EN: {"every", "each", "weekly", "daily"},
    PL: {"co", "kazdy", "kazda", "kazde", "kazdego", "kazdej", "codziennie", "cotygodniowo"},
    LT: {"kas", "kiekviena", "kiekvienas", "kasdien"},
}
# A claim that something happens every day of the week ("codziennie", "7 dni w tygodniu"): folded phrases, read
# in the claim's text (a number word in them is a number token). Only Polish so far.
EVERY_DAY_PHRASES: dict[str, list[str]] = {
    PL: ["codziennie", "kazdego dnia", "w kazdy dzien", "przez caly tydzien", "7 dni w tygodniu",
         "siedem dni w tygodniu", "bez dni wolnych", "we wszystkie dni tygodnia"],
}
# Frequencies rarer than every day ("dwa razy w tygodniu", "co tydzień", "co drugi dzień"): the number of times a
# week, read from the count of "razy" before a weekly phrase (7 or more is every day), or 0 for the rest.
WEEKLY_TIMES_PHRASES: dict[str, list[tuple[str, ...]]] = {
    PL: [("razy", "w", "tygodniu"), ("raz", "w", "tygodniu"), ("razy", "na", "tydzien"), ("raz", "na", "tydzien")],
}
RARER_THAN_DAILY_PHRASES: dict[str, list[tuple[str, ...]]] = {
    PL: [("co", "tydzien"), ("co", "tygodnie"), ("co", "drugi", "dzien"), ("raz", "w", "miesiacu"),
         ("razy", "w", "miesiacu"), ("co", "miesiac"), ("raz", "w", "roku"), ("razy", "w", "roku")],
}
# The days of the week and the days each word names (raw words, stemmed by the judge): "od wtorku do niedzieli"
# names 2..7; "weekendy" 6 and 7.
WEEKDAY_NUMBERS: dict[str, dict[str, tuple[int, ...]]] = {
    PL: {"poniedzialek": (1,), "wtorek": (2,), "sroda": (3,), "czwartek": (4,), "piatek": (5,), "sobota": (6,),
         "niedziela": (7,), "weekend": (6, 7),
         # "w dni powszednie" (and "w dni robocze", read as it by PHRASE_EQUIVALENTS[PL]) names Monday to Friday
         "powszedni": (1, 2, 3, 4, 5)},
}
ALTERNATE_PHRASES: dict[str, list[tuple[str, ...]]] = {
    EN: [("every", "other"), ("every", "second"), ("alternate",), ("fortnightly",), ("biweekly",)],
    PL: [("co", "drugi"), ("co", "druga"), ("co", "drugie"), ("co", "drugiego")],
    LT: [("kas", "antra"), ("kas", "antras"), ("kas", "antrus")],
}

# Groups whose members exclude each other even in a statement with no number:
# "the buyer pays return postage" contradicts "the shop pays return postage".
# A price is either net or gross: "prices are gross" contradicts "prices are net" (index of that group).
NET_GROSS_GROUP = 9
EXCLUSIVE_ROLE_GROUPS = (7, NET_GROSS_GROUP)

_CHANNEL_WORDS: dict[str, dict[str, str]] = {
    EN: {"internet": "online"},
    PL: {"internet": "online", "internecie": "online", "epuap": "online", "internetu": "online", "internetowo": "online",
         "internetowy": "online", "internetowym": "online", "internetowej": "online", "internetowego": "online",
         "internetowa": "online", "internetowe": "online",
         "osobiscie": "person", "stacjonarnie": "person", "stacjonarnym": "person", "stacjonarnego": "person",
         "elektronicznie": "online", "elektroniczny": "online", "elektroniczna": "online",
         "elektronicznej": "online", "elektronicznego": "online",
         "telefonicznie": "phone", "telefon": "phone", "telefonu": "phone", "poczta": "post", "poczte": "post",
         "pocztowo": "post"},
    LT: {"internetu": "online", "internete": "online", "internetas": "online", "elektroniniu": "online",
         # the internet in its other cases ("interneto greitis", "prieiga prie interneto")
         "interneto": "online", "interneta": "online", "internetui": "online",
         "asmeniskai": "person", "atvykus": "person", "atvykes": "person", "vietoje": "person",
         "telefonu": "phone", "pastu": "post",
         # calling is by phone: "paskambinus" = "telefonu"
         "paskambinus": "phone", "paskambinti": "phone", "paskambine": "phone", "paskambinkite": "phone",
         "skambinant": "phone", "skambinkite": "phone", "skambindami": "phone", "skambinti": "phone"},
}

# Words treated as one meaning (folded raw words -> canonical raw word, stemmed afterwards).
SYNONYMS: dict[str, dict[str, str]] = {
    EN: {
        "shipping": "delivery", "shipped": "delivery", "ship": "delivery", "ships": "delivery",
        "dispatch": "delivery", "dispatched": "delivery", "delivered": "delivery", "deliver": "delivery",
        "price": "cost", "prices": "cost", "fee": "cost", "fees": "cost", "charge": "cost",
        "charged": "cost", "charges": "cost", "pay": "cost", "pays": "cost", "paid": "cost",
        "costs": "cost", "paying": "cost", "kid": "child", "kids": "child", "children": "child", "luggage": "baggage",
        "bags": "baggage", "bag": "baggage", "suitcase": "baggage", "package": "parcel",
        "packages": "parcel", "refunded": "refund", "refunds": "refund", "returned": "return",
        "lent": "loan", "lend": "loan", "borrow": "loan", "borrowed": "loan", "loaned": "loan",
        "purchase": "buy", "bought": "buy", "admitted": "enter", "admission": "enter",
        "entry": "enter", "enters": "enter", "apply": "application", "applications": "application",
        "document": "document", "pets": "animal", "pet": "animal", "animals": "animal",
        "takes": "take", "took": "take", "lasts": "take", "last_duration": "take",
        "processed": "process", "handled": "process", "allows": "allow", "opens": "open", "opened": "open",
        # "£45 a year" = "annual", "£5 a month" = "monthly": the period a price is for
        "annual": "year", "annually": "year", "yearly": "year", "monthly": "month",
    },
    PL: {
        "cena": "koszt", "ceny": "koszt", "cene": "koszt", "kosztuje": "koszt", "kosztuja": "koszt",
        "kosztowac": "koszt", "oplata": "koszt", "oplaty": "koszt", "oplate": "koszt", "platnosc": "koszt",
        "zaplacic": "koszt", "placisz": "koszt", "placi": "koszt", "wynosi": "wynosi",
        # paying said as a verb ("zapłaci", "płacą") or as a surcharge ("za dopłatą 60 zł"): the price's own word
        "zaplaci": "koszt", "zaplacisz": "koszt", "zaplaca": "koszt", "zaplacimy": "koszt", "placa": "koszt",
        "placic": "koszt", "placimy": "koszt", "placicie": "koszt", "doplata": "koszt", "doplaty": "koszt",
        "doplate": "koszt", "doplacic": "koszt", "doplacac": "koszt", "doplacasz": "koszt",
        "doplaci": "koszt",
        "wysylka": "dostawa", "wysylamy": "dostawa", "wysylki": "dostawa", "wysylke": "dostawa",
        "dostarczamy": "dostawa", "dostawy": "dostawa", "dostawe": "dostawa",
        "zwracamy": "zwrot", "zwrocic": "zwrot", "zwracac": "zwrot", "zwrotu": "zwrot",
        "przesylka": "paczka", "przesylki": "paczka", "przesylke": "paczka", "paczke": "paczka",
        "paczki": "paczka", "dowodu": "dowod", "zwierzeta": "zwierze", "zwierzat": "zwierze",
        "trwa": "trwa", "zajmuje": "trwa", "wydawany": "wydanie", "wydawane": "wydanie",
        "wydaje": "wydanie", "wydania": "wydanie", "wydanie": "wydanie",
        "oddajemy": "zwrot", "oddamy": "zwrot", "oddac": "zwrot", "oddawane": "zwrot", "oddaje": "zwrot",
        "zwracane": "zwrot", "zwracany": "zwrot", "zwracana": "zwrot", "zwrocone": "zwrot", "zwrocimy": "zwrot",
        "otwarty": "czynny", "otwarta": "czynny", "otwarte": "czynny", "czynna": "czynny", "czynne": "czynny",
        "otwierany": "czynny", "otwierana": "czynny", "otwierane": "czynny",
        # one meaning in shop and office pages, said in other words by a paraphrase
        "znizka": "rabat", "znizki": "rabat", "znizke": "rabat", "znizek": "rabat", "upust": "rabat",
        "upustu": "rabat", "rabatu": "rabat", "obnizka": "rabat", "obnizki": "rabat",
        "zwykla": "standardowa", "zwykly": "standardowa", "zwyklej": "standardowa", "zwyklego": "standardowa",
        "przyczyna": "powod", "przyczyny": "powod", "przyczyn": "powod", "przyczyne": "powod", "powodu": "powod",
        "powodow": "powod",
        "okazac": "okazanie", "okazaniu": "okazanie", "okazania": "okazanie", "okazuje": "okazanie",
        "pokazac": "okazanie", "pokazania": "okazanie", "pokazaniu": "okazanie", "pokazuje": "okazanie",
        "pokaze": "okazanie", "pokazesz": "okazanie", "pokaza": "okazanie", "okaze": "okazanie", "okazesz": "okazanie",
        "okaza": "okazanie", "pokazujesz": "okazanie", "okazujesz": "okazanie", "okazywania": "okazanie",
        "okazywanie": "okazanie", "okazywac": "okazanie", "pokazywania": "okazanie", "pokazywac": "okazanie",
        "zwrocony": "zwrot", "zwrocona": "zwrot", "zwroconego": "zwrot", "zwroconych": "zwrot", "zwroconej": "zwrot",
        "odeslac": "zwrot", "odsylac": "zwrot", "odsylamy": "zwrot", "odeslanie": "zwrot", "odeslania": "zwrot",
        "odeslany": "zwrot", "odeslane": "zwrot", "odesle": "zwrot",
        "odsylasz": "zwrot", "odeslesz": "zwrot", "odeslij": "zwrot", "odsyla": "zwrot", "odsylaja": "zwrot", "odsylacie": "zwrot",
        # one meaning said in other words on Polish shop and office pages (i25)
        "dziala": "czynny", "dzialaja": "czynny", "dzialamy": "czynny",  # "działa do 23:00" = "czynny do 23:00"
        "czeka": "trwa", "czekasz": "trwa", "czekac": "trwa", "czekania": "trwa", "oczekiwania": "trwa",
        "oczekuje": "trwa",  # "na wydanie czeka się 7 dni" = "wydanie trwa 7 dni"
        "pojawia": "dostepne", "pojawi": "dostepne", "pojawiaja": "dostepne", "dostepny": "dostepne",
        "dostepna": "dostepne",  # results "pojawią się w aplikacji" = "są dostępne w aplikacji"
        "wazny": "obowiazuje", "wazna": "obowiazuje", "wazne": "obowiazuje", "waznosc": "obowiazuje",
        "waznej": "obowiazuje", "waznego": "obowiazuje", "waznym": "obowiazuje", "wazni": "obowiazuje",
        "waznych": "obowiazuje", "waznosci": "obowiazuje",
        "obowiazuja": "obowiazuje", "obowiazywac": "obowiazuje",  # a ticket or permit "ważny" = "obowiązuje"
        "zamrozenie": "zawieszenie", "zamrozic": "zawieszenie", "zamrozenia": "zawieszenie",
        "zawiesic": "zawieszenie", "zawieszenia": "zawieszenie", "zamrozony": "zawieszenie",
        "zawieszony": "zawieszenie",
        # shopping ("przy zakupach powyżej 249 zł") is the order ("przy zamówieniu powyżej 249 zł")
        "zakupy": "zamowienie", "zakupach": "zamowienie", "zakupow": "zamowienie", "zakupami": "zamowienie",
        "oddzielny": "osobny", "oddzielna": "osobny", "oddzielne": "osobny", "oddzielnego": "osobny",
        "oddzielnej": "osobny", "oddzielnym": "osobny", "osobnego": "osobny", "osobna": "osobny", "osobne": "osobny",
        "osobnej": "osobny", "osobnym": "osobny",
        # travelling: "jedzie" (goes by train or bus) = "podróżuje"
        "jedzie": "podrozuje", "jada": "podrozuje", "jechac": "podrozuje", "jezdzi": "podrozuje",
        "jezdza": "podrozuje", "podrozuja": "podrozuje", "podrozowac": "podrozuje", "podrozujesz": "podrozuje",
        "jedziesz": "podrozuje",
        "liczona": "liczy", "liczonej": "liczy", "liczony": "liczy", "liczone": "liczy", "liczonego": "liczy",
        "liczymy": "liczy",  # a warranty "liczona od daty zakupu" = "liczy się od dnia zakupu"
        # entry: "nieograniczony wstęp na siłownię" = "bez limitu chodzić na siłownię", "wejście na basen"
        "wejscie": "wstep", "wejscia": "wstep", "wejsciu": "wstep", "wstepu": "wstep", "wchodzic": "wstep",
        "wejsc": "wstep", "chodzic": "wstep", "chodzisz": "wstep", "wchodzisz": "wstep", "wejdziesz": "wstep",
        "nieograniczony": "bezlimitowy", "nieograniczona": "bezlimitowy", "nieograniczone": "bezlimitowy",
        "nieograniczonego": "bezlimitowy", "nieograniczonej": "bezlimitowy", "nieograniczonym": "bezlimitowy",
        "nieograniczenie": "bezlimitowy", "bezlimitowa": "bezlimitowy", "bezlimitowe": "bezlimitowy",
        # a kind: "urządzenie tego samego typu" = "tego samego rodzaju"
        "typ": "rodzaj", "typu": "rodzaj", "typie": "rodzaj", "rodzaju": "rodzaj", "rodzaje": "rodzaj",
        "typy": "rodzaj", "typow": "rodzaj", "rodzajow": "rodzaj",
        # a cost said as an outlay or a payment made: "to wydatek 38 zł", "od zaksięgowania wpłaty"
        "wydatek": "koszt", "wydatku": "koszt", "wplata": "koszt", "wplaty": "koszt", "wplate": "koszt",
        "wplacie": "koszt",
        # a cinema's showing is the film shown: "bilet na seans 3D" = "bilet na film w 3D"
        "seans": "film", "seansu": "film", "seanse": "film", "seansow": "film", "seansie": "film", "filmu": "film",
        "filmy": "film", "filmow": "film", "filmie": "film",
        # paying for an order: "zamówienie można opłacić BLIKIEM" = "za zamówienie zapłacisz BLIKIEM"
        "oplacic": "koszt", "oplacisz": "koszt", "oplaca": "koszt", "oplacasz": "koszt", "oplacac": "koszt",
        "oplacenie": "koszt", "oplacenia": "koszt", "oplacone": "koszt", "oplacony": "koszt", "oplacona": "koszt",
        # a car: "auto" = "samochód" (rental, parking, repair pages)
        "auto": "samochod", "auta": "samochod", "autem": "samochod", "aucie": "samochod", "samochodu": "samochod",
        "samochodem": "samochod", "samochodzie": "samochod", "samochody": "samochod", "samochodow": "samochod",
        "aut": "samochod", "autami": "samochod", "samochodami": "samochod",
        # a parcel or money coming back: "przesyłka wraca do nadawcy" = "zostanie zwrócona do nadawcy"
        "wraca": "zwrot", "wracaja": "zwrot", "wroci": "zwrot", "wroca": "zwrot", "powraca": "zwrot",
    },
    LT: {
        "kainuoja": "kaina", "kainos": "kaina", "kaina": "kaina", "mokestis": "kaina", "mokescio": "kaina",
        "mokama": "kaina", "moka": "kaina", "apmoka": "kaina", "sumoka": "kaina",
        # who bears a cost: "išlaidas padengia" = "išlaidas apmoka"
        "padengia": "kaina", "padengiame": "kaina", "padengs": "kaina", "padengsime": "kaina", "padengti": "kaina",
        "dengia": "kaina", "padengiamos": "kaina", "padengiama": "kaina",
        "pristatome": "pristatymas", "pristatomi": "pristatymas", "pristatoma": "pristatymas",
        "pristatymo": "pristatymas", "siunciame": "pristatymas", "issiunciame": "pristatymas",
        "issiunciami": "pristatymas", "issiunciamas": "pristatymas", "siuntimas": "pristatymas",
        "grazinti": "grazinimas", "grazinami": "grazinimas", "grazinama": "grazinimas", "graziname": "grazinimas",
        "grazinimo": "grazinimas", "dirba": "dirba", "veikia": "dirba", "atidaromas": "dirba",
        "atidaryta": "dirba", "atidarytas": "dirba", "atidaryti": "dirba", "atidarytos": "dirba", "atviras": "dirba",
        "atvira": "dirba", "atviri": "dirba", "atviros": "dirba", "atidaroma": "dirba", "atidaromi": "dirba",
 "isduodamas": "isdavimas", "isduodama": "isdavimas", "isduodami": "isdavimas",
        "isduodame": "isdavimas", "isdavimo": "isdavimas",
        # getting a permit or a card is its being issued: "leidimą gausite" = "leidimas išduodamas" (not "gavimo",
        # the receipt of goods, nor "gaunantys", those who receive a benefit)
        "gauti": "isdavimas", "gausite": "isdavimas", "gausi": "isdavimas", "gaus": "isdavimas",
        "gausime": "isdavimas", "gaunate": "isdavimas", "gauna": "isdavimas", "gaunamas": "isdavimas",
        "gaunama": "isdavimas", "gaunami": "isdavimas", "gaunamos": "isdavimas",
        # a pet is an animal on a hotel or transport page ("su augintiniu" = "su gyvūnu")
        "augintinis": "gyvunas", "augintinio": "gyvunas", "augintiniu": "gyvunas", "augintini": "gyvunas",
        "augintiniai": "gyvunas", "augintinius": "gyvunas", "augintiniams": "gyvunas", "augintiniais": "gyvunas",
        "augintiniui": "gyvunas",
        # late: "vėliau" (later) and "vėlyvas" (late) check-out, arrival, payment
        "veliau": "velyvas", "velyvo": "velyvas", "velyva": "velyvas", "velyvam": "velyvas", "velyvasis": "velyvas",
        "velyvojo": "velyvas",
        # a warranty, discount or rule "galioja" (is valid), "taikoma" (applies), "suteikiama" (is granted)
        "taikoma": "galioja", "taikomas": "galioja", "taikomi": "galioja", "taikomos": "galioja",
        "suteikiama": "galioja", "suteikiamas": "galioja", "suteikiami": "galioja",
        "galioti": "galioja", "galios": "galioja", "teikiama": "galioja", "teikiamas": "galioja", "teikiami": "galioja",
        "teikiamos": "galioja", "suteikiame": "galioja", "suteikia": "galioja", "teikiame": "galioja",
        "teikia": "galioja", "taikome": "galioja", "taiko": "galioja",
        # household appliances: "buitinė technika" = "buitiniai prietaisai"
        "technika": "prietaisas", "technikai": "prietaisas", "technikos": "prietaisas", "technikoje": "prietaisas",
        # a person: "žmonės" and "asmenys" name the same people on a service page
        "asmuo": "asmens", "zmogus": "asmens", "zmogaus": "asmens", "zmogui": "asmens", "zmogu": "asmens",
        "zmones": "asmens", "zmoniu": "asmens", "zmonems": "asmens", "zmonemis": "asmens",
    },
}

for _lang, _channels in _CHANNEL_WORDS.items():
    SYNONYMS[_lang].update(_channels)

# The parcel locker is a way of delivery of its own: its five-letter stem would be the parcel's ("paczk",
# "paczka") or the post's ("past", "paštas"), so its forms are read as "locker".
_LOCKER_FORMS = {
    PL: ("paczkomat", "paczkomatem", "paczkomatu", "paczkomaty", "paczkomacie", "paczkomatow", "paczkomatach",
         "paczkomatami", "paczkomatowa", "paczkomatowy"),
    LT: ("pastomatas", "pastomata", "pastomatu", "pastomate", "pastomatai", "pastomatus", "pastomatuose",
         "pastomato"),
}
for _lang, _forms in _LOCKER_FORMS.items():
    SYNONYMS[_lang].update(dict.fromkeys(_forms, "locker"))

# English words of shop and service pages that say one thing ("a further item" = "an extra item", "overdue"
# = "late", "first-time customers" = "new customers", "joining the library" = "library membership").
SYNONYMS[EN].update({
    "further": "extra", "additional": "extra", "overdue": "late", "beforehand": "ahead", "first-time": "new",
    "membership": "member", "memberships": "member", "join": "member", "joins": "member", "joining": "member",
    "send": "delivery", "sends": "delivery", "sent": "delivery", "sending": "delivery",
    "purchased": "buy", "purchases": "buy", "purchasing": "buy", "buys": "buy", "buying": "buy",
    "offered": "available", "offers": "available", "offer": "available",
    # one verb: "tickets can be used on any train" = "you can use the ticket on any train"
    "used": "use", "using": "use",
})

# English past participles and past forms whose stems the suffix rules do not reach ("blood tests are taken" =
# "takes blood tests", "shown on your ticket" = "shows"): each read as its verb.
EN_IRREGULAR_FORMS: dict[str, str] = {
    "taken": "take", "given": "give", "gave": "give", "shown": "show", "showed": "show", "written": "write",
    "wrote": "write", "sold": "sell", "kept": "keep", "held": "hold", "chosen": "choose", "chose": "choose",
    "seen": "see", "saw": "see", "known": "know", "knew": "know",
    "brought": "bring", "thrown": "throw", "threw": "throw", "driven": "drive", "drove": "drive",
    "worn": "wear", "wore": "wear", "broken": "break", "broke": "break", "stolen": "steal", "stole": "steal",
    "found": "find", "fully": "full", "spent": "spend", "met": "meet", "won": "win", "told": "tell",
}
SYNONYMS[EN].update(EN_IRREGULAR_FORMS)

# English words of shop and service pages that name one thing ("guarantee" = "warranty", "calling" = "by phone",
# "cars" = "vehicles", "the amount" = "the value", "paid up front" = "in advance"). "People" and "anyone" are
# stop words: "people who live in the zone" is said by "residents living in the zone".
EN_SAME_THING: dict[str, str] = {
    "guarantee": "warranty", "guarantees": "warranty", "guaranteed": "warranty", "warranties": "warranty",
    "phoning": "phone",
    "residents": "resident",
    "car": "vehicle", "cars": "vehicle", "vehicles": "vehicle",
    "amount": "value", "amounts": "value", "sum": "value",
    "upfront": "ahead",
    # one way of doing a thing, said in two words: "by telephone" = "by phone", "e-mail" = "email", "on our
    # website" = "online", "in-store" = "in person"
    "telephone": "phone", "telephoning": "phone", "e-mail": "email", "emails": "email", "emailed": "email",
    "website": "online", "websites": "online", "portal": "online", "in-store": "person",
    "reimburse": "refund", "reimbursed": "refund", "reimbursement": "refund", "repay": "refund", "repaid": "refund",
    "reserve": "book", "reserves": "book", "reserved": "book", "reserving": "book", "reservation": "book",
    "reservations": "book", "booking": "book", "bookings": "book",
    "begin": "start", "begins": "start", "began": "start", "begun": "start", "beginning": "start",
    "commence": "start", "commences": "start",
    "pensioner": "senior", "pensioners": "senior",
    "photograph": "photo", "photographs": "photo", "picture": "photo", "pictures": "photo",
    "shopper": "customer", "shoppers": "customer",
    # an item too big for a normal bin or parcel: "bulky items" = "large items"
    "bulky": "large",
    "reschedule": "change", "rescheduled": "change", "rearrange": "change", "rearranged": "change",
    "amend": "change", "amended": "change", "amendments": "change",
    # leaving and departing, arriving: one event each ("before the train leaves" = "before departure")
    "leave": "departure", "leaves": "departure", "leaving": "departure", "depart": "departure",
    "departs": "departure", "departing": "departure", "departed": "departure", "departures": "departure",
    "arrive": "arrival", "arrives": "arrival", "arriving": "arrival", "arrived": "arrival", "arrivals": "arrival",
}
SYNONYMS[EN].update(EN_SAME_THING)

# Lithuanian words of shop, warranty and service pages that say one thing: a battery is an "akumuliatorius" or a
# "baterija"; goods "atkeliauja" (arrive) where the shop "pristato" (delivers) them; a yearly or monthly price is
# "metinis" / "mėnesinis" where the page says "per metus" / "per mėnesį"; a card or a certificate is "parengiama",
# "paruošiama" or "pagaminama" (made ready); a surcharge is paid "papildomai" or is an "antkainis".
SYNONYMS[LT].update({
    **dict.fromkeys(("akumuliatorius", "akumuliatoriaus", "akumuliatoriui", "akumuliatoriu", "akumuliatoriai",
                     "akumuliatoriams", "akumuliatoriuje", "baterija", "baterijos", "baterijai", "baterijoje",
                     "baterijas", "baterijoms"), "baterija"),
    **dict.fromkeys(("atkeliauja", "atkeliaus", "atkeliauti", "atkeliaujanti",
                     "atvezama", "atvezamos", "atvezami", "atvezamas", "atveziame", "pristatomos", "pristatomas",
                     "pristatysime", "pristato",
                     # a parcel is what is delivered: "siuntos atkeliauja" = "prekės pristatomos"
                     "siunta", "siuntos", "siuntai", "siuntoje", "siuntu", "siuntas", "siuntinys",
                     "siuntinio", "siuntini", "siuntiniai", "siuntinius"), "pristatymas"),
    **dict.fromkeys(("metinis", "metine", "metinio", "metines", "metini", "metiniai", "metinius", "metiniam"), "metus"),
    **dict.fromkeys(("menesinis", "menesine", "menesinio", "menesines", "menesini", "menesiniai", "menesinius",
                     "menesiniam"), "menesi"),
    # a document or card made ready within a time is issued within it: "pažyma parengiama per 3 darbo dienas" =
    # "pažyma išduodama per 3 darbo dienas"
    **dict.fromkeys(("parengiama", "parengiamas", "parengiami", "parengiamos", "paruosiama", "paruosiamas",
                     "paruosiami", "paruosiamos", "pagaminama", "pagaminamas", "pagaminami", "pagaminamos",
                     "parengsime", "paruosime", "pagaminsime", "parengti", "paruosti", "pagaminti"), "isdavimas"),
    # in writing: "raštiškas" = "rašytinis"; a written consent is a written permission ("raštiškas sutikimas" =
    # "rašytinis leidimas")
    **dict.fromkeys(("rastiskas", "rastiska", "rastiska", "rastisko", "rastiskos", "rastiskai", "rasytinis",
                     "rasytini", "rasytine", "rasytinio", "rasytines", "rasytiniu", "rastu", "rastisku"), "rastu"),
    # money paid back is money transferred back: "pinigai grąžinami" = "pinigus perveda" (only the finite and
    # passive forms: "pervedimu", "pervedant", "pervesti" also pay for an order)
    **dict.fromkeys(("perveda", "pervedame", "pervedami", "pervedama", "pervesime", "perves", "pervesta",
                     "pervedamos"), "grazinami"),
    # using up an allowance: "sunaudojus" = "išnaudojus" (the data, the minutes)
    **dict.fromkeys(("sunaudojus", "isnaudojus", "sunaudojote", "isnaudojote", "sunaudosite", "isnaudosite",
                     "sunaudojamas", "isnaudojamas", "sunaudotas", "isnaudotas"), "isnaudojus"),
    **dict.fromkeys(("sutikimas", "sutikimo", "sutikima", "sutikimu", "sutikimui"), "leidimas"),
    # travelling by train or bus: "važiuoja nemokamai" = "už kelionę nemoka"
    **dict.fromkeys(("kelione", "keliones", "kelionei", "kelioneje", "kelionem", "keliauja", "keliauti", "keliaujant",
                     "keliaujantys", "vaziuoja", "vaziuoti", "vaziavimas", "vaziavimo", "vaziavima", "vaziuojant",
                     "vaziuojantys", "vaziuojate", "vaziuosite"), "kelione"),
    **dict.fromkeys(("antkainis", "antkainio", "antkaini", "antkainiu", "primoketi", "primokama", "primokate",
                     "primoka", "primokesite", "priemoka", "priemokos", "priemoka"), "antkainis"),
})

# English phrases of shop and service pages that say one thing in other words, read as one wording before
# anything else reads the tokens: "every day" / "seven days a week" = "daily", "in advance" = "ahead",
# "send back" = "return", "half price" = "50% discount". Folded words (digits as written); the longest
# phrase that matches is taken. Polish and Lithuanian ones go in their own lists.
PHRASE_EQUIVALENTS: dict[str, list[tuple[tuple[str, ...], tuple[str, ...]]]] = {
    EN: [
        *[((first, "day"), ("daily",)) for first in ("every", "each")],
        (("every", "single", "day"), ("daily",)), (("every", "day", "of", "the", "week"), ("daily",)),
        *[((mon, joiner, fri), ("weekdays",)) for mon in ("monday", "mondays", "mon") for fri in ("friday", "fridays", "fri")
          for joiner in ("to", "-", "–", "through", "until", "till")],
        *[((sat, joiner, sun), ("weekends",)) for sat in ("saturday", "saturdays", "sat") for sun in ("sunday", "sundays", "sun")
          for joiner in ("and", "-", "–", "to")],
        *[(("every", other, day), ("fortnightly", day)) for other in ("other", "second", "alternate")
          for day in ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")],
        *[((take, "place"), ("happen",)) for take in ("take", "takes", "took", "taking")],
        *[((pick, "up"), ("collect",)) for pick in ("pick", "picks", "picked", "picking")],
        # an order is what is collected, delivered or returned: "collecting your order in store" = "collection in store"
        *[((act, det, order), (act,)) for act in ("collect", "collects", "collecting", "collected", "collection",
                                                  "deliver", "delivers", "delivering", "delivery", "return",
                                                  "returns", "returning", "dispatch", "dispatching")
          for det in ("your", "the", "their", "an", "my") for order in ("order", "orders")],
        # one adult in a home: "single occupants" = "single people living alone" = "people who live on their own"
        *[(("single", occupant), ("living", "alone"))
          for occupant in ("occupant", "occupants", "occupancy", "occupiers", "occupier")],
        *[((live, "on", own, "own"), (live, "alone")) for live in ("live", "lives", "living")
          for own in ("their", "your", "his", "her", "my")],
        # seeing or visiting a collection or an exhibition is entering it: "visitors can see the permanent
        # collection without paying" = "entry to the permanent collection is free"
        *[((see, det, *place), ("enter", det, *place))
          for see in ("see", "sees", "seeing", "visit", "visits", "visiting", "view", "viewing")
          for det in ("the", "our", "its", "all", "any")
          for place in (("collection",), ("collections",), ("exhibition",), ("exhibitions",), ("gallery",),
                        ("galleries",), ("museum",), ("gardens",), ("permanent", "collection"),
                        ("permanent", "collections"), ("main", "collection"), ("special", "exhibition"),
                        ("special", "exhibitions"))],
        # a thing given back late is overdue (read as "late"): "when books come back late" = "overdue books"
        *[((*back, "late"), ("late",))
          for back in (("return",), ("returns",), ("returned",), ("returning",), *[(verb, "back") for verb in (
              "come", "comes", "came", "coming", "brought", "bring", "brings", "handed", "hand", "given",
              "give", "sent", "send")])],
        # taking a train or a bus is using it: "you can take any train" = "can be used on any train"
        *[((take, det, ride), ("use", det, ride)) for take in ("take", "takes", "taking", "took")
          for det in ("any", "the", "a", "every", "all") for ride in ("train", "trains", "bus", "buses", "tram", "trams",
                                                                    "ferry", "ferries", "coach", "coaches", "service", "services")],
        *[((let, "us", "know"), ("tell", "us")) for let in ("let", "letting")],
        # "refunds go back to the original payment method" = "are issued to it": money's going says nothing
        *[((money, *go, *back, "to"), (money, "to")) for money in ("refund", "refunds", "money", "deposit", "deposits")
          for go in (("go",), ("goes",), ("went",), ("will", "go")) for back in ((), ("back",))],
        *[((seven, "days", "a", "week"), ("daily",)) for seven in ("seven", "7")],
        *[((first, "week"), ("weekly",)) for first in ("every", "each")],
        *[((first, "month"), ("monthly",)) for first in ("every", "each")],
        *[((first, "year"), ("yearly",)) for first in ("every", "each")],
        *[(("every", other, "week"), ("fortnightly",)) for other in ("other", "second", "alternate")],
        *[(("every", two, "weeks"), ("fortnightly",)) for two in ("two", "2")],
        (("in", "advance"), ("ahead",)), (("preceding",), ("before",)),
        # "valid for a year", "within a week": one of the unit (after a price, "a month" is its rate, left alone)
        *[((before, a, unit), (before, "1", unit)) for before in ("for", "within", "than", "about", "after")
          for a in ("a", "an", "one") for unit in ("hour", "day", "week", "month", "year")],
        *[((before, "a", "fortnight"), (before, "2", "weeks")) for before in ("for", "within", "than")],
        (("every", "fortnight"), ("fortnightly",)),
        # "once your order reaches £50" is "when", not one time
        *[(("once", word), ("when", word)) for word in ("you", "your", "the", "we", "it", "they", "our", "their")],
        *[((send, "back"), ("return",)) for send in ("send", "sends", "sent", "sending", "bring", "brings",
                                                      "brought", "bringing", "come", "comes", "coming")],
        *[((send, "out"), ("dispatched",)) for send in ("send", "sends", "sent", "sending")],
        (("your", "money", "back"), ("refund",)), (("their", "money", "back"), ("refund",)),
        (("money", "back"), ("refund",)),
        (("at", "any", "hour", "of", "the", "day"), ("at", "any", "time")), (("at", "any", "hour"), ("at", "any", "time")),
        (("around", "the", "clock"), ("at", "any", "time")), (("round", "the", "clock"), ("at", "any", "time")),
        *[((h, "hours", "a", "day"), ("at", "any", "time")) for h in ("24", "twenty-four")],
        (("24", "/", "7"), ("at", "any", "time")),
        (("half", "an", "hour"), ("30", "minutes")), (("quarter", "of", "an", "hour"), ("15", "minutes")),
        (("an", "hour", "and", "a", "half"), ("90", "minutes")),
        *[((pay, "half", "price"), ("50", "%", "discount")) for pay in ("pay", "pays", "paying")],
        (("half", "price"), ("50", "%", "discount")), (("half", "off"), ("50", "%", "discount")),
        (("half", "the"), ("50", "%", "of", "the")), (("half", "of", "the"), ("50", "%", "of", "the")),
        (("%", "off"), ("%", "discount")), (("percent", "off"), ("%", "discount")),
        # a condition said in other words: "as long as you apply" = "if you apply"
        *[((so, "long", "as"), ("if",)) for so in ("as", "so")], (("on", "condition", "that"), ("if",)),
        (("up", "front"), ("ahead",)), *[(("in", place), ("in", "person")) for place in ("store", "branch")],
        # calling a service is phoning it ("by calling 0300 ...", "call us"); "called" alone may be "named"
        *[((by, call), (by, "phone")) for by in ("by", "or") for call in ("calling", "ringing")],
        *[((call, "us"), ("phone", "us")) for call in ("call", "calling", "ring")], (("at", "any", "point"), ("at", "any", "time")),
        (("at", "any", "moment"), ("at", "any", "time")),
        # "no minimum contract" = "no minimum term"; "takes away the packaging" = "removes" it
        *[(("minimum", word), ("minimum", "term")) for word in ("contract", "commitment", "period")],
        *[((take, "away"), ("remove",)) for take in ("take", "takes", "took", "taking", "taken")],
        *[((good, "for"), ("valid", "for")) for good in ("good",)],
        # bins and bulky items put out for collection: "put out by 7 am" = "at the kerb by 7 am" = "left outside"
        *[((put, out), ("kerbside",)) for put in ("put", "puts", "putting", "leave", "leaves", "left", "leaving",
                                                  "place", "placed", "placing") for out in ("out", "outside")],
        *[(("at", "the", kerb), ("kerbside",)) for kerb in ("kerb", "kerbside", "curb", "curbside", "roadside")],
        (("kerbside",), ("kerbside",)), (("curbside",), ("kerbside",)),
        # a fare one travels at is one paid: "children travel at half the adult fare" = "pay half the adult fare"
        *[((travel, "at"), ("pay",)) for travel in ("travel", "travels", "travelling", "traveling", "ride", "rides")],
        # what a permit or a fee is for, said of its vehicle's people: "drivers of electric cars pay half" =
        # "permits for electric vehicles are half price"
        *[((who, "of"), ("for",)) for who in ("drivers", "owners", "keepers")],
        # a text is a text message
        *[(("text", message), ("text",)) for message in ("message", "messages")], (("sms",), ("text",)),
        # "free the first time" = "free for the first one": the time is the first one's
        *[((*the, "first", "time"), ("first",)) for the in (("the",), ("for", "the"))],
        # 50% of the normal price is half price: "pay 50% of the full price" = "half price"
        *[((*pay, "50", pct, "of", "the", normal, "price"), ("50", "%", "discount"))
          for pay in ((), ("pay",), ("pays",), ("paying",), ("cost",), ("costs",)) for pct in ("%", "percent")
          for normal in ("normal", "full", "regular", "standard", "usual")],
        # what a ticket, a receipt or a permit shows: "printed on it" = "shown on it"
        *[((printed, "on"), ("shown", "on")) for printed in ("printed", "stated", "written", "displayed", "indicated")],
        # a subscription that keeps renewing renews automatically
        *[((keep, renewing), ("renews", "automatically")) for keep in ("keeps", "keep")
          for renewing in ("renewing",)],
        *[((cont, "to", "renew"), ("renews", "automatically")) for cont in ("continues", "continue")],
        (("auto", "-", "renews"), ("renews", "automatically")),
    ],
    PL: [],
    LT: [
        # "šeštadieniais ir sekmadieniais" is the weekend
        *[((sat, "ir", sun), ("savaitgaliais",)) for sat in ("sestadieniais", "sestadieni")
          for sun in ("sekmadieniais", "sekmadieni")],
        # "perpus pigiau", "už pusę kainos": a half-price discount
        *[((half, "pigiau"), ("50", "%", "nuolaida")) for half in ("perpus", "dvigubai")],
        (("uz", "puse", "kainos"), ("50", "%", "nuolaida")), (("puse", "kainos"), ("50", "%", "nuolaida")),
        # "žmonės su negalia" (people with a disability) = "neįgalieji"
        # (the tokeniser reads "negalia" as "ne" "galia")
        *[((people, "su", "ne", "galia"), ("neigalieji",)) for people in
          ("zmones", "zmonems", "zmoniu", "zmonemis", "asmenys", "asmenims", "asmenu", "asmenimis", "asmuo",
           "asmeniui", "asmeniu", "zmogus", "zmogui", "zmogaus")],
        # "ne vėliau kaip prieš 3 dienas" (no later than 3 days before) = "bent prieš 3 dienas" (at least)
        (("ne", "veliau", "kaip", "pries"), ("bent", "pries")),
        # with or without an adult: "su suaugusiuoju" = "lydimi suaugusiojo"; "be suaugusiųjų" = not accompanied
        *[(("su", adult), ("lydimi", "suaugusiojo")) for adult in ("suaugusiuoju", "suaugusiaisiais")],
        *[(("be", adult), ("ne", "lydimi", "suaugusiojo")) for adult in ("suaugusiuju", "suaugusiojo", "suaugusio")],
        # what a warranty or an insurance covers it applies to: "garantija (ne)apima gedimų" = "garantija
        # (ne)taikoma gedimams"
        *[((cover, *no, covers), (cover, *no, "taikoma"))
          for cover in ("garantija", "garantijos", "draudimas", "draudimo")
          for no in ((), ("ne",)) for covers in ("apima", "apims")],
        # a child who comes "alone" comes without an adult: "gali eiti vieni" = "be suaugusiųjų" (only after a verb
        # of going: "vieni ... kiti" is "some ... others")
        *[((go, alone, *adult), (go, "ne", "lydimi", "suaugusiojo"))
          for go in ("eiti", "ateiti", "plaukti", "lankytis", "keliauti", "vaziuoti", "ateina", "eina", "plaukia",
                     "keliauja", "vaziuoja", "lankosi")
          for alone in ("vieni", "vienas", "viena", "vienos")
          for adult in ((), (",", "be", "suaugusiuju"), (",", "be", "suaugusiojo"), ("be", "suaugusiuju"),
                        ("be", "suaugusiojo"))],
        # lent out to take home: "į namus (ne)išduodami" = "(ne)galima pasiimti į namus"
        *[(("i", "namus", "ne", lent), ("ne", "pasiimami", "i", "namus"))
          for lent in ("isduodami", "isduodama", "isduodamas", "isduodamos", "skolinami", "skolinama")],
        *[((lent, "i", "namus"), ("pasiimami", "i", "namus"))
          for lent in ("isduodami", "isduodama", "isduodamas", "isduodamos", "skolinami", "skolinama")],
        *[(("i", "namus", lent), ("pasiimami", "i", "namus"))
          for lent in ("isduodami", "isduodama", "isduodamas", "isduodamos", "skolinami", "skolinama")],
        # paying in instalments: "mokėti dalimis" = "išsimokėtinai" = "išsimokėjimas dalimis"
        *[((pay, "dalimis"), ("issimokejimas",)) for pay in ("moketi", "sumoketi", "mokate", "mokama", "mokant")],
        *[((word, "dalimis"), ("issimokejimas",)) for word in ("issimokejimas", "issimokejima", "issimokejimo",
                                                               "issimokejimu")],
        *[((word,), ("issimokejimas",)) for word in ("issimoketinai", "issimokejima", "issimokejimo", "issimokejimu")],
        # "mėnesį iš anksto" (a month in advance) = "prieš mėnesį"
        *[((unit, "is", "anksto"), ("pries", unit)) for unit in ("para", "savaite", "menesi", "valanda", "pusmeti")],
        # "likus (bent) 2 valandoms iki seanso" (with two hours left before) = "(bent) prieš 2 valandas iki seanso"
        (("likus", "bent"), ("bent", "pries")), (("likus", "ne", "maziau", "kaip"), ("bent", "pries")),
        (("likus", "ne", "maziau", "nei"), ("bent", "pries")), (("likus",), ("pries",)),
        # a car's mileage is the number of kilometres driven: "nuvažiuotų kilometrų skaičius" = "rida"
        *[((*driven, "kilometru", count), ("rida",))
          for driven in ((), ("nuvaziuotu",), ("nuvaziuojamu",), ("nuvazuotu",))
          for count in ("skaicius", "skaiciaus", "skaiciui", "skaiciu")],
        # a connection slowed down is its speed lowered: "internetas sulėtinamas" = "interneto greitis sumažinamas"
        *[((speed, lowered), (slowed,)) for speed in ("greitis", "greiti")
          for lowered, slowed in (("sumazinamas", "suletinamas"), ("sumazinama", "suletinamas"),
                                  ("sumazes", "suletes"), ("sumazeja", "suleteja"), ("sumazinsime", "suletinsime"),
                                  ("suletinamas", "suletinamas"), ("suletinama", "suletinamas"))],
        # a day's (week's, month's) mileage, price or limit is one per day: "paros rida" = "rida per parą"
        *[((of_unit, noun), ("per", unit, noun))
          for of_unit, unit in (("paros", "para"), ("savaites", "savaite"), ("menesio", "menesi"))
          for noun in ("rida", "limitas", "norma")],
    ],
}

# Polish times said in words: "kwadrans" = 15 minutes, "pół godziny" = 30, "półtorej godziny" = 90, "pół roku" =
# 6 months; a time of day as an ordinal hour ("o ósmej", "wpół do ósmej" = 7:30, "przed ósmą rano", "do
# dziesiątej wieczorem" = 22:00). A bare "od drugiej" / "do trzeciej" is also "from the second (item)", so after
# "do", "od", "przed", "po" the hour is read only with "rano" / "wieczorem" / "w nocy" / "po południu" after it.
PL_HOUR_ORDINALS: dict[int, tuple[str, ...]] = {
    1: ("pierwszej", "pierwsza"), 2: ("drugiej", "druga"), 3: ("trzeciej", "trzecia"), 4: ("czwartej", "czwarta"),
    5: ("piatej", "piata"), 6: ("szostej", "szosta"), 7: ("siodmej", "siodma"), 8: ("osmej", "osma"),
    9: ("dziewiatej", "dziewiata"), 10: ("dziesiatej", "dziesiata"), 11: ("jedenastej", "jedenasta"),
    12: ("dwunastej", "dwunasta"),
}
# the afternoon and evening hours need no part of the day: "przed trzynastą", "do osiemnastej"
PL_HOUR_ORDINALS_LATE: dict[int, tuple[tuple[str, ...], ...]] = {
    13: (("trzynastej",), ("trzynasta",)), 14: (("czternastej",), ("czternasta",)),
    15: (("pietnastej",), ("pietnasta",)), 16: (("szesnastej",), ("szesnasta",)),
    17: (("siedemnastej",), ("siedemnasta",)), 18: (("osiemnastej",), ("osiemnasta",)),
    19: (("dziewietnastej",), ("dziewietnasta",)), 20: (("dwudziestej",), ("dwudziesta",)),
    21: (("dwudziestej", "pierwszej"), ("dwudziesta", "pierwsza")),
    22: (("dwudziestej", "drugiej"), ("dwudziesta", "druga")),
    23: (("dwudziestej", "trzeciej"), ("dwudziesta", "trzecia")),
}
_PL_DAY_PARTS: dict[tuple[str, ...], int] = {("rano",): 0, ("wieczorem",): 12, ("wieczor",): 12,
                                             ("po", "poludniu"): 12, ("w", "nocy"): 0}
PHRASE_EQUIVALENTS[PL].extend([
    # "bez limitu" = "nieograniczony"; "od daty zakupu" = "od dnia zakupu"
    *[(("bez", word), ("bezlimitowy",)) for word in ("limitu", "limitow", "ograniczen", "ograniczenia")],
    (("od", "daty"), ("od", "dnia")), (("z", "data"), ("z", "dniem")),
    # "do 26. roku życia" = "do 26 lat" (the ordinal's dot goes with it: words.py)
    (("roku", "zycia"), ("lat",)),
    # "z miesięcznym okresem wypowiedzenia" = one month's notice ("miesięczny" alone is also "monthly": only
    # before "okres")
    *[((adjective, period), (period, "1", unit)) for unit, adjectives in (
        ("miesiac", ("miesieczny", "miesiecznym", "miesiecznego", "miesieczna")),
        ("tydzien", ("tygodniowy", "tygodniowym", "tygodniowego")), ("rok", ("roczny", "rocznym", "rocznego")))
      for adjective in adjectives for period in ("okres", "okresem", "okresu", "okresie")],
    # occupying a seat is no duration ("zajmuje" is also "takes", read as "trwa")
    *[((verb, *adjective, noun), ("zajmowanie", *adjective, noun))
      for verb in ("zajmuje", "zajmuja", "zajmujesz", "zajmowac", "zajmie", "zajma")
      for adjective in ((), ("osobnego",), ("osobne",), ("oddzielnego",), ("oddzielne",), ("wlasnego",), ("wlasne",))
      for noun in ("miejsca", "miejsce")],
    # "w dni robocze" / "w dzień roboczy" as days of the week (not "2 dni robocze", a duration) = "w dni powszednie"
    (("w", "dni", "robocze"), ("w", "dni", "powszednie")), (("w", "dzien", "roboczy"), ("w", "dni", "powszednie")), (("w", "dzien", "powszedni"), ("w", "dni", "powszednie")),
    (("w", "dni", "roboczych"), ("w", "dni", "powszednich")),
    # the days a range or a weekend names, said as the day words a claim uses: "od poniedziałku do piątku" = "w
    # dni powszednie", "w weekendy" = "w soboty (i) niedziele" (so "w soboty" and "w niedziele" are stated there)
    *[(("od", "poniedzialku", "do", friday), ("w", "dni", "powszednie")) for friday in ("piatku", "piatek")],
    *[(("w", weekend), ("w", "soboty", "niedziele")) for weekend in ("weekend", "weekendy", "weekendów", "weekendow")],
    *[(("przez", "weekend"), ("w", "soboty", "niedziele"))],
    # "w każdy wtorek" = "we wtorki": every such day is the days said in the plural
    *[((w, every, day), ("w", days)) for w in ("w", "we") for every, day, days in (
        ("kazdy", "poniedzialek", "poniedzialki"), ("kazdy", "wtorek", "wtorki"), ("kazda", "srode", "srody"),
        ("kazdy", "czwartek", "czwartki"), ("kazdy", "piatek", "piatki"), ("kazda", "sobote", "soboty"),
        ("kazda", "niedziele", "niedziele"))],
    *[(("we", days), ("w", days)) for days in ("wtorki", "wtorek", "czwartki", "czwartek")],
    # "po tygodniu" = "po 7 dniach"; "w ciągu doby" = "w ciągu 24 godzin"
    (("po", "tygodniu"), ("po", "7", "dniach")), (("po", "dwoch", "tygodniach"), ("po", "14", "dniach")),
    # a generic person as the subject of a modal is the reader a page speaks to ("Czytelnik może wypożyczyć" =
    # "można wypożyczyć" = "możesz wypożyczyć"); not the customer or the buyer, whom a page sets against the shop
    *[((person, modal), (said,)) for person in ("czytelnik", "uzytkownik", "pasazer", "pacjent", "osoba")
      for modal, said in (("moze", "mozna"), ("musi", "trzeba"), ("powinien", "trzeba"), ("powinna", "trzeba"))],
    *[((person, modal), (said,)) for person in ("czytelnicy", "uzytkownicy", "pasazerowie", "pacjenci", "osoby")
      for modal, said in (("moga", "mozna"), ("musza", "trzeba"), ("powinni", "trzeba"))],
    *[((modal, person), (said,)) for person in ("czytelnicy", "uzytkownicy", "pasazerowie", "pacjenci", "osoby")
      for modal, said in (("moga", "mozna"), ("musza", "trzeba"))],
    # "numer NIP" is the NIP; a bare unit after a bound is one of it ("od co najmniej roku", "do godziny przed")
    *[(("numer", what), (what,)) for what in ("nip", "pesel", "regon")],
    *[((bound, unit), (bound, "1", unit)) for bound in ("najmniej", "najwyzej", "maksymalnie", "minimum")
      for unit in ("roku", "rok", "miesiaca", "miesiac", "tygodnia", "tydzien", "doby", "dobe", "godziny", "godzine",
                   "dnia", "dzien")],
    *[(("do", unit, "przed"), ("do", "1", unit, "przed")) for unit in ("godziny", "doby", "dnia", "tygodnia")],
    # a right or a discount one "może skorzystać z" is one that "przysługuje" ("z abonamentu mogą skorzystać
    # mieszkańcy" = "abonament przysługuje mieszkańcom")
    *[((modal, use), ("przysluguje",)) for modal in ("moga", "moze", "mozesz", "mozna")
      for use in ("skorzystac", "korzystac")],
    # the office a page speaks for, as the subject of its own act, is the page's "we" ("Urząd wyda abonament" =
    # "wydamy abonament" = "wydanie abonamentu")
    *[((office, verb), (verb,)) for office in ("urzad", "urzedy")
      for verb in ("wyda", "wydaje", "wydaja", "wydadza", "rozpatrzy", "rozpatruje", "rozpatruja", "rozpatrza",
                   "wystawi", "wystawia", "wysle", "wysyla")],
    # one "only": "wyłącznie" = "jedynie" = "tylko"
    (("wylacznie",), ("tylko",)), (("jedynie",), ("tylko",)),
    # "po upływie terminu" / "po terminie" = "później" (after the time limit a rule names)
    *[(after, ("pozniej",)) for after in (("po", "uplywie", "terminu"), ("po", "uplywie", "tego", "terminu"),
                                           ("po", "tym", "terminie"), ("po", "terminie"))],
    (("kwadrans",), ("15", "minut")), (("kwadransa",), ("15", "minut")), (("kwadransie",), ("15", "minut")),
    (("pol", "godziny"), ("30", "minut")), (("polgodzinny",), ("30", "minut")),
    (("poltorej", "godziny"), ("90", "minut")), (("pol", "roku"), ("6", "miesiecy")),
    *[(("wpol", "do", form), (f"{hour - 1 if hour > 1 else 12}:30",))
      for hour, forms in PL_HOUR_ORDINALS.items() for form in forms],
    *[(("o", form, *part), ("o", f"{hour + shift if hour < 12 else hour}:00"))
      for hour, forms in PL_HOUR_ORDINALS.items() for form in forms for part, shift in _PL_DAY_PARTS.items()],
    *[(("o", form), ("o", f"{hour}:00")) for hour, forms in PL_HOUR_ORDINALS.items() for form in forms],
    *[((before, form, *part), (before, f"{hour + shift if hour < 12 else hour}:00"))
      for before in ("do", "od", "przed", "po", "godz", "godziny", "godzina")
      for hour, forms in PL_HOUR_ORDINALS.items() for form in forms for part, shift in _PL_DAY_PARTS.items()],
    *[((before, form), (before, f"{hour}:00")) for before in ("godz", "godziny", "godzina")
      for hour, forms in PL_HOUR_ORDINALS.items() for form in forms],
    *[((before, *form), (before, f"{hour}:00"))
      for before in ("o", "do", "od", "przed", "po", "godz", "godziny", "godzina")
      for hour, forms in PL_HOUR_ORDINALS_LATE.items() for form in forms],
])

# Verbs and nouns of one shop or office act, whose stems differ ("odebrać" / "odbiór", "kupić" / "zakup",
# "złożyć" / "składania", "atsiimti" / "atsiėmimas"): folded forms -> one canonical word.
_ACT_FAMILIES: dict[str, dict[str, tuple[str, ...]]] = {
    PL: {
        "odbior": ("odebrac", "odebrania", "odbierac", "odbiera", "odbieramy", "odebrane", "odebrany", "odebrana",
                   "odbioru", "odebranie"),
        "zakup": ("kupic", "kupiony", "kupiona", "kupione", "zakupu", "zakupie", "zakupiony", "zakupiona",
                  "zakupione", "kupna", "kupujesz", "kupuje",
                  # goods "zamówione" online are goods bought ("towar zamówiony w sklepie internetowym")
                  "zamowiony", "zamowiona", "zamowione", "zamowionego", "zamowionej", "zamowionych"),
        "zlozenie": ("skladac", "sklada", "skladamy", "skladania", "skladanie", "zlozyc", "zlozenia", "zlozony",
                     "zlozone", "zlozona", "skladasz"),
        "reklamacja": ("reklamowac", "zareklamowac", "reklamacji", "reklamacje", "reklamujemy", "reklamowany"),
        "rezerwacja": ("zarezerwowac", "rezerwowac", "rezerwacji", "rezerwacje", "zarezerwowany", "rezerwujemy"),
        "rezygnacja": ("zrezygnowac", "rezygnowac", "rezygnacji", "rezygnuje"),
        "naprawa": ("naprawic", "naprawy", "naprawe", "naprawiamy", "naprawiany", "naprawione", "naprawiane"),
        "dostawa": ("wyslac", "wyslemy", "wyslane", "wyslany", "wysylane", "wysylany", "dostarczyc", "dostarczony",
                    "dostarczona", "dostarczone", "dostarczane", "dostarczenia", "dostarczenie",
                    # bringing it by car: "dowozimy", "przywozimy"
                    "dowozimy", "dowozi", "dowozone", "dowozony", "dowozona", "dowozic", "dowoz", "dowozu",
                    "dowieziemy", "dowiezie", "przywozimy", "przywozi", "przywozone", "przywieziemy", "przywiezie",
                    # what reaches the customer: "paczki przychodzą", "towar trafia do klienta", "dotrze"
                    "przychodzi", "przychodza", "przyjdzie", "przyjda", "dociera", "docieraja", "dotrze", "dotra",
                    "trafia", "trafiaja", "trafi"),
        "rejestracja": ("zarejestrowac", "rejestrowac", "rejestracji", "rejestracje", "zarejestrowany",
                        "zarejestrujesz", "zarejestruj", "zarejestruje", "zarejestrujemy",
                        # signing up for a visit or a course: "zapisać się" = "zarejestrować się"
                        "zapisac", "zapisz", "zapisy", "zapisow", "zapisuje", "zapisujemy", "zapisujesz",
                        "zapiszesz", "zapisanie", "zapisania"),
        # getting a card or an account made: the reader "wyrabia" or "zakłada" it
        "wyrobienie": ("wyrobic", "wyrabia", "wyrabiac", "wyrabiamy", "wyrobienia", "wyrabiania", "wyrabianie",
                       "wyrobiona", "wyrobiony", "wyrobione", "zalozenie", "zalozyc", "zaklada", "zakladamy",
                       "zalozenia"),
        # granting a warranty or a discount: "udzielamy 2 lat gwarancji" = "daje 2 lata gwarancji"
        "udziela": ("udzielamy", "udzielaja", "udzielic", "daje", "dajemy", "daja"),
        "wydanie": ("wydajemy", "wydajecie", "wydaja", "wydana", "wydany", "wyda", "wydamy", "wydadza"),
        "uplywa": ("mija", "uplywa", "uplywu", "mijaja"),
        # replacing a part: "wymiana ekranu" = "ekran wymieniany" = "wymieniamy ekran"
        "wymiana": ("wymiany", "wymiane", "wymianie", "wymieniamy", "wymieniany", "wymieniana", "wymieniane",
                    "wymienic", "wymieni", "wymienimy", "wymieniac", "wymienia"),
        # at one time: "jednorazowo można wypożyczyć 8 książek" = "jednocześnie", "naraz"
        "jednoczesnie": ("jednorazowo", "naraz", "rownoczesnie"),
        # sending a parcel off: "nadasz paczkę" = "można nadać paczkę" = "paczka nadana"
        "nadanie": ("nadac", "nadasz", "nadaje", "nadajesz", "nadaja", "nadajemy", "nadamy", "nadany", "nadana",
                    "nadane", "nadania", "nadawac", "nadawane", "nadawana", "nadawany", "nadawania"),
        # getting something: "dzieci dostają dowód" = "otrzymują dowód" ("dostaje" would stem as "dostawa")
        "otrzymanie": ("dostaje", "dostajesz", "dostaja", "dostajemy", "dostanie", "dostaniesz", "dostana", "dostac",
                       "otrzymuje", "otrzymujesz", "otrzymuja", "otrzymujemy", "otrzyma", "otrzymasz", "otrzymaja",
                       "otrzymac", "otrzymywac", "otrzymanie"),
        # the train, day, date or branch the customer chose: "wskazany przy zakupie" = "wybrany"
        "wybrany": ("wybrany", "wybranym", "wybranej", "wybrana", "wybrane", "wybranego", "wybranych", "wskazany",
                    "wskazanym", "wskazanej", "wskazana", "wskazane", "wskazanego", "wskazanych"),
        # keeping back part of a refund: "potrącamy 15% ceny" = "potrąca się 15%" = "15% zostanie potrącone"
        "potracenie": ("potracamy", "potraca", "potracaja", "potracimy", "potraci", "potracone", "potracona",
                       "potracony", "potracic", "potracac", "potracenie", "potracenia", "potraceniem"),
        # weighing: "paczka o wadze do 25 kg" = "paczka ważąca 25 kg"
        "waga": ("wadze", "wagi", "wage", "wazaca", "wazacy", "wazace", "wazacej", "wazacych", "wazacego",
                 "wazacym", "wazy", "waza", "wazyc"),
        # instalments: "wniosek ratalny" = "wniosek o raty", "zakup na raty"
        "raty": ("rata", "rat", "ratach", "ratami", "ratom", "rate", "ratalny", "ratalna", "ratalne", "ratalnego",
                 "ratalnej", "ratalnym", "ratalnych"),
        # considering an application or a complaint: "rozpatrujemy" = "zostanie rozpatrzony"
        "rozpatrzenie": ("rozpatrujemy", "rozpatruje", "rozpatruja", "rozpatrzymy", "rozpatrzy", "rozpatrzony",
                         "rozpatrzona", "rozpatrzone", "rozpatrywany", "rozpatrywana", "rozpatrywane", "rozpatrzenia",
                         "rozpatrywania", "rozpatrzyc", "rozpatrywac"),
        # issuing an invoice or a document: "wystawiamy" = "wystawimy" = "zostanie wystawiona"
        "wystawienie": ("wystawiamy", "wystawimy", "wystawia", "wystawi", "wystawiaja", "wystawia", "wystawic",
                        "wystawiona", "wystawiony", "wystawione", "wystawienia", "wystawiana", "wystawiany",
                        "wystawiane"),
        # reaching an age: "masz ukończone 21 lat" = "skończyłeś 21 lat" ("u-" is lost by neither stemmer)
        "ukonczenie": ("ukonczone", "ukonczony", "ukonczona", "ukonczyl", "ukonczyla", "ukonczyli", "ukonczyly",
                       "ukonczyc", "ukonczenia", "ukonczeniu", "skonczone", "skonczony", "skonczona", "skonczyl",
                       "skonczyla", "skonczyli", "skonczyly", "skonczyc", "skonczenia", "skonczeniu", "skonczysz",
                       "skonczy", "skoncza", "ukonczysz", "ukonczy", "ukoncza", "skonczyles", "skonczylas",
                       "ukonczyles", "ukonczylas"),
    },
    LT: {
        "atsiemimas": ("atsiimti", "atsiimami", "atsiimama", "atsiemimas", "atsiemimo", "atsiimant", "atsiimate",
                       "atsiimamos", "atsiimta", "atsiimtas", "atsiimtos", "atsiimti", "pasiimti", "pasiimama",
                       "pasiimami", "pasiimamas", "pasiimate", "pasiimsite", "pasiimti", "pasiimta", "pasiimant"),
        "pirkimas": ("pirkti", "pirkta", "pirkimo", "pirkimas", "nupirktas", "nupirkti", "nupirktus", "nupirkta",
                     "nupirktos", "isigyti", "isigytas", "isigytos", "isigytus", "isigijimo", "isigijimas",
                     "isigijima", "isigijus", "isigyjant", "isigyja", "isigyjate", "perkant", "perka", "perkate", "perkama",
                     "perkamas", "perkami", "perkamos", "perkame", "perkamu",
                     "pirkus",
                     # a purchase: "pirkiniams nuo 150 €" = "perkant už 150 €"
                     "pirkinys", "pirkinio", "pirkiniai", "pirkiniams", "pirkinius", "pirkiniu", "pirkini",
                     "pirkiniui"),
        # deducting a fee from a refund: "išskaičiuojamas 10 % mokestis" = "atskaitoma 10 %"
        "isskaiciavimas": ("isskaiciuojamas", "isskaiciuojama", "isskaiciuojami", "isskaiciuojame", "isskaiciuoti",
                           "atskaitoma", "atskaitomas", "atskaitomi", "atskaito", "atskaitome", "atskaiciuojama",
                           "atskaiciuojamas", "nuskaiciuojama", "nuskaiciuojamas", "nuskaitoma", "nuskaitomas",
                           "isskaitoma", "isskaitomas"),
        # paying with a card in a shop: "atsiskaitymai kortele" = "mokant kortele"
        "atsiskaitymas": ("atsiskaityti", "atsiskaitymai", "atsiskaitymas", "atsiskaitymo", "atsiskaitymu",
                          "atsiskaitant", "atsiskaito", "atsiskaitoma", "atsiskaitote", "mokant", "sumokant",
                          # "galite atsiskaityti kortele" = "galima sumokėti kortele", "sumokėjus grynaisiais"
                          "sumoketi", "sumokejus", "sumokama"),
        "uzsakymas": ("uzsakyti", "uzsakymas", "uzsakymo", "uzsakymai", "uzsakymus", "uzsakytas", "uzsakytos",
                      "uzsakyta", "uzsakytus", "uzsisakyti", "uzsakome", "uzsakymams", "uzsakymui", "uzsakyme",
                      "uzsakote", "uzsakysite", "uzsakant", "uzsakius", "uzsakiusiems", "uzsakoma", "uzsakomas",
                      "uzsakomi", "uzsakomos", "uzsakai", "uzsakysi"),
        "pateikimas": ("pateikti", "pateikiamas", "pateikiami", "pateikimas", "pateikimo", "pateikiama",
                       # showing a receipt or a card is presenting it: "parodžius kortelę" = "pateikus kortelę"
                       "pateikus", "parodyti", "parodzius", "parode", "parodes", "parodziusiems", "parodote",
                       "parodykite", "parodzius", "parodant"),
        "remontas": ("remonto", "remontuojame", "remontuojamas", "taisymas", "taisymo", "taisome", "sutaisyti"),
        # those who receive a benefit: "pašalpos gavėjai" = "pašalpą gaunantys asmenys"
        "gavejas": ("gavejai", "gaveju", "gavejams", "gavejas", "gaveja", "gavejui", "gaunantys", "gaunantiems",
                    "gaunanciu", "gaunancios", "gaunancioms", "gaunantis", "gaunanciam", "gaunancius"),
        # cancelling an order, a subscription or a contract: "atšaukti" and "nutraukti" lose different prefixes
        "atsaukti": ("atsaukti", "atsaukimas", "atsaukimo", "atsaukima", "atsaukus", "atsaukiate", "atsaukete",
                     "atsaukia", "atsaukiama", "atsaukiamas", "nutraukti", "nutraukimas", "nutraukimo", "nutraukima",
                     "nutraukus", "nutraukiate", "nutraukete", "nutraukia", "nutraukiama", "nutraukiamas",
                     # an order or booking "anuliuojamas" (annulled) is cancelled
                     "anuliuoti", "anuliuojamas", "anuliuojama", "anuliuojami", "anuliuojamos", "anuliavimas",
                     "anuliavimo", "anuliuojame", "anuliuosime"),
        "registracija": ("registruoti", "registracijos", "uzregistruoti", "registruojama", "registruojamas",
                         "registruotis", "isiregistruoti", "isiregistruoja", "isiregistruojama", "isiregistruojate",
                         "isiregistravimas", "isiregistravimo", "isiregistravima", "isiregistruojant", "isiregistravus"),
        # Checking out and deregistering undo a registration, but the stemmer's prefixes ("išsi-", "iš-") would
        # make them "registruoti": a canonical word of their own keeps the two apart (a contrast group pairs them).
        "deregistration": ("issiregistruoti", "issiregistruoja", "issiregistruojama", "issiregistruojate",
                           "issiregistravimas", "issiregistravimo", "issiregistravima", "issiregistruojant",
                           "issiregistravus", "isregistruoti", "isregistravimas", "isregistravimo", "isregistruojama",
                           "isregistruojamas"),
        # warning ahead: "įspėjus prieš mėnesį" = "jei įspėjate mėnesį iš anksto"
        "ispejimas": ("ispeti", "ispejus", "ispejate", "ispeja", "ispejama", "ispejimas", "ispejimo", "ispejima",
                      "ispejant", "ispekite", "ispesite", "ispejo"),
        # Arriving and leaving: "atvykti" and "išvykti" lose their prefixes to one stem ("vykt").
        "arrival": ("atvykimas", "atvykimo", "atvykima", "atvykimui", "atvykti", "atvyksta", "atvykstate",
                    "atvykite", "atvyksite", "atvykstant", "atvyks"),
        "departure": ("isvykimas", "isvykimo", "isvykima", "isvykimui", "isvykti", "isvyksta", "isvykstate",
                      "isvykite", "isvyksite", "isvykstant", "isvyks", "isvykus",
                      # "vykti į užsienį" (go abroad) = "išvykti į užsienį"
                      "vykti"),
    },
}
for _lang, _families in _ACT_FAMILIES.items():
    for _canonical, _forms in _families.items():
        SYNONYMS[_lang].update(dict.fromkeys(_forms, _canonical))

# Words a quantity's dimension already says: "costs" adds nothing to "€5", "takes" nothing
# to "3 days". Raw words; stemmed by the judge.
IMPLIED_BY_DIMENSION: dict[str, set[str]] = {
    "money": {"cost", "costs", "price", "fee", "pay", "charge", "charged", "koszt", "kosztuje", "oplata",
              "cena", "wynosi", "amount", "kwota", "kaina", "kainuoja", "mokestis", "suma",
              # Lithuanian "pay" and "is charged" ("reikia sumokėti 15 €", "imamas 15 € mokestis")
              "moketi", "sumoketi", "mokate", "sumokate", "imamas", "imama", "imami", "imame",
              # the price of using or visiting a thing is its price ("už saunos lankymą mokama" = sauna's price)
              "lankyma", "lankymas", "lankymo", "naudojima", "naudojimas", "naudojimo", "naudojimasi",
              "naudojimosi",
              "opiewa", "opiewajace", "opiewajacy", "opiewajaca",  # "zamówienie opiewa na 1500 zł"
              "obowiazuje", "obowiazuja"},  # "cena 49 zł obowiązuje do końca miesiąca"
    "duration": {"take", "takes", "last", "lasts", "trwa", "wynosi", "zajmuje", "period", "okres", "time",
                 "czas", "trunka", "laikotarpis", "laikas", "terminas", "obowiazuje", "obowiazuja",
                 "pradzios"},  # Lithuanian "prieš parą iki vizito pradžios": a span before the start
    "percent": {"wynosi", "rate", "obowiazuje", "obowiazuja",
                "suma", "sumos", "sumai",  # "rabat 8% obowiązuje przy ...", "atskaitoma 10 % sumos"
                "kainuoja", "kaina", "kainos"},  # a discount is off the price: "kainuoja 50 % pigiau"
    "count": {"wynosi", "liczy", "liczaca", "liczacy", "liczace", "liczacej", "liczacych",  # "grupa licząca 25 osób"
              "skaicius", "skaiciu", "kiekis", "kieki", "kiekio"},
    "mass": {"weigh", "weighs", "wazyc", "wazy", "wynosi", "weight", "waga"},
    # "closes at 6 pm": the time of day is the closing time; "closes" names nothing else
    "clock": {"open", "opens", "opening", "close", "closes", "closing", "start", "starts", "begin", "begins",
              "czynny", "czynna", "czynne", "otwarty", "otwarta", "otwarte", "otwierany", "zamykany", "zamykana",
              "dirba", "atidaromas", "atidaroma", "uzdaromas", "uzdaroma",
              "zamyka", "otwiera", "zamykamy", "otwieramy", "godzina"},  # "zamyka się o 14:00", "do godziny 20"
}

# Menu / footer words: a passage made only of these lines is navigation, not evidence.
NAVIGATION_MARKS = {"|", "»", "›", "·", ">", "•"}
