raise RuntimeError("probe worker fails at start")


def never():
    return "unreachable"


__export__ = ["never"]
