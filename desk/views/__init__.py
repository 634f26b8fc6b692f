"""Thin views of the desk: parse the form, call one service, report in a sentence."""
