"""English formats for Leidraad: the words in English, the order European (day, month, year),
as the clubs using the English pages are Dutch clubs with English-speaking members and guests.
Django's own English formats are American ("Dec. 2, 2026", "12/02/2026"), which a director
would misread as 12 February."""

DATE_FORMAT = "j F Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j F Y H:i"  # as Dutch writes it
YEAR_MONTH_FORMAT = "F Y"
MONTH_DAY_FORMAT = "j F"
SHORT_DATE_FORMAT = "d-m-Y"
SHORT_DATETIME_FORMAT = "d-m-Y H:i"
FIRST_DAY_OF_WEEK = 1  # Monday
# Typed dates are read day first as well; the ISO form is what <input type="date"> sends.
DATE_INPUT_FORMATS = ["%Y-%m-%d", "%d-%m-%Y", "%d/%m/%Y", "%d-%m-%y"]
DATETIME_INPUT_FORMATS = ["%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%d-%m-%Y %H:%M"]
