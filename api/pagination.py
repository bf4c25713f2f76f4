from rest_framework.pagination import PageNumberPagination as _PageNumberPagination


class PageNumberPagination(_PageNumberPagination):
    """``?page=N&page_size=M`` (at most 100 a page)."""

    page_size_query_param = "page_size"
    max_page_size = 100
