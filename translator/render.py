"""Code that passes generate, rendered from the jinja2 templates of the top-level
`templates/` folder (`translator/templates` links to it in a checkout; a wheel holds a
copy), loaded through importlib.resources.

Undefined names are errors (StrictUndefined) and a template's trailing newline is kept,
so that a snippet comes out exactly as its template writes it. The pass that renders a
snippet checks that it parses before it offers it as an edit. jinja2 is imported on the
first rendering: most runs render nothing, and a process's start-up is the pre-commit
hook's cost.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources


@lru_cache(maxsize=1)
def environment():
    import jinja2

    class PackageLoader(jinja2.BaseLoader):
        """Templates from the `translator` package's `templates/` folder."""

        def get_source(self, environment, template: str):
            path = resources.files("translator") / "templates" / template
            if not path.is_file():
                raise jinja2.TemplateNotFound(template)
            return path.read_text(encoding="utf-8"), None, lambda: True

    return jinja2.Environment(loader=PackageLoader(), undefined=jinja2.StrictUndefined, keep_trailing_newline=True,
                              trim_blocks=True, lstrip_blocks=True, autoescape=False)


def render(template: str, **values) -> str:
    """The template `templates/<template>` rendered with `values`."""
    return environment().get_template(template).render(**values)
