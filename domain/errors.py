"""Domain errors. Each message is written for the person who caused it."""


class DomainError(Exception):
    """Base of every error a user may see; str(error) is the message to show."""


class NotFound(DomainError):
    pass


class PermissionDenied(DomainError):
    pass


class InvalidInput(DomainError):
    """Bad input; `field` names the field at fault when there is one."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class EditConflict(DomainError):
    """The record changed since the caller read it; nothing was overwritten."""

    def __init__(self, message: str, current_version: int | None = None) -> None:
        super().__init__(message)
        self.current_version = current_version


class AuthenticationFailed(DomainError):
    pass
