"""A small HTML tree for tests that read pages: `page(response).one("form", "newgame")`.

`all`/`one` find elements by tag, class and attributes (`aria_label=` matches `aria-label`);
SVG's empty elements are understood too.
"""

from __future__ import annotations

from html.parser import HTMLParser


class Node:
    def __init__(self, tag, attrs, parent=None):
        self.tag, self.attrs, self.parent, self.children = tag, dict(attrs), parent, []

    @property
    def classes(self) -> list[str]:
        return (self.attrs.get("class") or "").split()

    def text(self) -> str:
        return " ".join("".join(c if isinstance(c, str) else c.text() for c in self.children).split())

    def all(self, tag=None, cls=None, **attrs) -> list[Node]:
        found = []
        for child in self.children:
            if isinstance(child, Node):
                if ((tag is None or child.tag == tag) and (cls is None or cls in child.classes)
                        and all(child.attrs.get(k.rstrip("_").replace("_", "-")) == v
                                for k, v in attrs.items())):
                    found.append(child)
                found.extend(child.all(tag, cls, **attrs))
        return found

    def one(self, tag=None, cls=None, **attrs) -> Node:
        found = self.all(tag, cls, **attrs)
        assert len(found) == 1, (tag, cls, attrs, len(found))
        return found[0]


class Page(HTMLParser):
    VOID = frozenset({"input", "br", "meta", "link", "img", "hr", "source", "col", "area", "base",
                      "wbr", "use", "path", "rect", "circle", "polygon"})

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.root = self.node = Node("#root", {})
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        node = Node(tag, attrs, self.node)
        self.node.children.append(node)
        if tag not in self.VOID:
            self.node = node

    def handle_startendtag(self, tag, attrs):
        self.node.children.append(Node(tag, attrs, self.node))

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        node = self.node
        while node is not self.root and node.tag != tag:
            node = node.parent
        if node is not self.root:
            self.node = node.parent

    def handle_data(self, data):
        self.node.children.append(data)


def page(response) -> Node:
    return Page(response.data.decode()).root
