"""The page: view-model code (testable on CPython) and pyscript.web rendering."""
