"""The exception every Polyhal failure raises."""


class Error(RuntimeError):
    """A failed Polyhal status.

    ``code`` is the status code's name (``"INVALID_ARGUMENT"``,
    ``"UNIMPLEMENTED"``, ...) and ``message`` what went wrong, naming the
    file, line and column or the object at fault.
    """

    def __init__(self, code, message):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
