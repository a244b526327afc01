// A subset of the W3C DOM (DOM Level 2 Core; names and behaviour as in the WHATWG DOM
// Standard) for XML values of the ECMAScript datamodel (SCXML 1.0, B.2.2 and B.2.3).
// `dom.rs` evaluates this once per machine, the first time a value needs it, and builds
// documents with the function it returns: `build(tree)`, where `tree` is what `dom.rs`
// makes of parsed XML:
//   document:  [9, children]
//   element:   [1, qualifiedName, namespaceURI | null, [[qualifiedName, namespaceURI | null, value], ...], children]
//   text:      [3, data]        CDATA section: [4, data]
//   comment:   [8, data]        processing instruction: [7, target, data]
// Nothing here is a global: documents reach chart code only as values.
(function () {
  "use strict";

  const XMLNS = "http://www.w3.org/2000/xmlns/";

  function split(qualifiedName) {
    const at = qualifiedName.indexOf(":");
    return at < 0
      ? [null, qualifiedName]
      : [qualifiedName.slice(0, at), qualifiedName.slice(at + 1)];
  }

  // `childNodes`, `getElementsByTagName(...)`: an array with `item(i)`; a static list (the
  // DOM's is live).
  class NodeList extends Array {
    item(i) {
      return i >= 0 && i < this.length ? this[i] : null;
    }
  }

  // XML 1.0 markup of a node (the DOM Parsing spec's XML serialization, without namespace
  // fix-up: parsed documents carry their `xmlns` attributes).
  function escapeText(s) {
    return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  }
  function escapeAttr(s) {
    return s
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/"/g, "&quot;")
      .replace(/\t/g, "&#9;")
      .replace(/\n/g, "&#10;")
      .replace(/\r/g, "&#13;");
  }
  function serialize(node, out) {
    switch (node.nodeType) {
      case 1: {
        out.push("<", node.tagName);
        for (const a of node.attributes) out.push(" ", a.name, '="', escapeAttr(a.value), '"');
        if (node.childNodes.length === 0) {
          out.push("/>");
        } else {
          out.push(">");
          for (const c of node.childNodes) serialize(c, out);
          out.push("</", node.tagName, ">");
        }
        break;
      }
      case 2:
        out.push(escapeAttr(node.value));
        break;
      case 3:
        out.push(escapeText(node.data));
        break;
      case 4:
        out.push("<![CDATA[", node.data, "]]>");
        break;
      case 7:
        out.push("<?", node.target, node.data ? " " + node.data : "", "?>");
        break;
      case 8:
        out.push("<!--", node.data, "-->");
        break;
      case 9:
        for (const c of node.childNodes) serialize(c, out);
        break;
    }
    return out;
  }

  function descendants(node, match, list) {
    for (const c of node.childNodes) {
      if (c.nodeType === 1) {
        if (match(c)) list.push(c);
        descendants(c, match, list);
      }
    }
    return list;
  }

  function sibling(node, offset) {
    const p = node.parentNode;
    if (!p) return null;
    const i = p.childNodes.indexOf(node) + offset;
    return i >= 0 && i < p.childNodes.length ? p.childNodes[i] : null;
  }

  class Node {
    get firstChild() {
      return this.childNodes.length ? this.childNodes[0] : null;
    }
    get lastChild() {
      const n = this.childNodes.length;
      return n ? this.childNodes[n - 1] : null;
    }
    get nextSibling() {
      return sibling(this, 1);
    }
    get previousSibling() {
      return sibling(this, -1);
    }
    hasChildNodes() {
      return this.childNodes.length > 0;
    }
    // Element and Document: the concatenated data of every Text and CDATA descendant.
    get textContent() {
      let s = "";
      for (const c of this.childNodes) {
        if (c.nodeType === 3 || c.nodeType === 4 || c.nodeType === 1) s += c.textContent;
      }
      return s;
    }
    set textContent(value) {
      for (const c of this.childNodes) c.parentNode = null;
      this.childNodes.length = 0;
      const text = String(value);
      if (text !== "") this.appendChild(new Text(this.ownerDocument || this, 3, text));
    }
    get nodeValue() {
      return null;
    }
    set nodeValue(_value) {}
    appendChild(child) {
      return this.insertBefore(child, null);
    }
    insertBefore(child, reference) {
      if (this.nodeType !== 1 && this.nodeType !== 9) {
        throw new TypeError("insertBefore: only elements and documents have children");
      }
      if (!(child instanceof Node) || child.nodeType === 9 || child.nodeType === 2) {
        throw new TypeError("insertBefore: not a node that can be a child");
      }
      for (let p = this; p; p = p.parentNode) {
        if (p === child) throw new RangeError("insertBefore: a node cannot contain itself");
      }
      if (this.nodeType === 9 && child.nodeType === 1 && this.documentElement) {
        throw new RangeError("insertBefore: a document has one document element");
      }
      if (child.parentNode) child.parentNode.removeChild(child);
      const at = reference === null || reference === undefined ? -1 : this.childNodes.indexOf(reference);
      if (reference !== null && reference !== undefined && at < 0) {
        throw new RangeError("insertBefore: the reference node is not a child of this node");
      }
      if (at < 0) this.childNodes.push(child);
      else this.childNodes.splice(at, 0, child);
      child.parentNode = this;
      return child;
    }
    removeChild(child) {
      const at = this.childNodes.indexOf(child);
      if (at < 0) throw new RangeError("removeChild: not a child of this node");
      this.childNodes.splice(at, 1);
      child.parentNode = null;
      return child;
    }
    toString() {
      return serialize(this, []).join("");
    }
    // What `JSON.stringify` and the datamodel's JSON conversion make of the node: a
    // document or element is `{"$xml": markup}` (which converts back into a document), text
    // its data.
    toJSON() {
      return this.nodeType === 1 || this.nodeType === 9 ? { $xml: this.toString() } : this.textContent;
    }
  }
  const TYPES = {
    ELEMENT_NODE: 1,
    ATTRIBUTE_NODE: 2,
    TEXT_NODE: 3,
    CDATA_SECTION_NODE: 4,
    PROCESSING_INSTRUCTION_NODE: 7,
    COMMENT_NODE: 8,
    DOCUMENT_NODE: 9,
  };
  for (const k in TYPES) Object.defineProperty(Node.prototype, k, { value: TYPES[k] });

  function elementsByName(node, name) {
    return descendants(node, (e) => name === "*" || e.tagName === name, new NodeList());
  }
  function elementsByNameNS(node, ns, local) {
    const anyNs = ns === "*";
    ns = ns === "" || ns === undefined ? null : ns;
    return descendants(
      node,
      (e) => (anyNs || e.namespaceURI === ns) && (local === "*" || e.localName === local),
      new NodeList(),
    );
  }

  class Document extends Node {
    constructor() {
      super();
      this.parentNode = null;
      this.childNodes = new NodeList();
    }
    get nodeType() {
      return 9;
    }
    get nodeName() {
      return "#document";
    }
    get ownerDocument() {
      return null;
    }
    get textContent() {
      return null;
    }
    set textContent(_value) {}
    get documentElement() {
      return this.childNodes.find((c) => c.nodeType === 1) || null;
    }
    getElementsByTagName(name) {
      return elementsByName(this, String(name));
    }
    getElementsByTagNameNS(ns, local) {
      return elementsByNameNS(this, ns, String(local));
    }
    createElement(name) {
      return new Element(this, String(name), null);
    }
    createElementNS(ns, qualifiedName) {
      return new Element(this, String(qualifiedName), ns === "" || ns === undefined ? null : ns);
    }
    createTextNode(data) {
      return new Text(this, 3, String(data));
    }
    createComment(data) {
      return new CharacterData(this, 8, String(data));
    }
  }

  class Attr {
    constructor(owner, name, ns, value) {
      this.ownerElement = owner;
      this.name = name;
      this.namespaceURI = ns;
      this.value = value;
    }
    get nodeType() {
      return 2;
    }
    get nodeName() {
      return this.name;
    }
    get nodeValue() {
      return this.value;
    }
    set nodeValue(v) {
      this.value = String(v);
    }
    get textContent() {
      return this.value;
    }
    get localName() {
      return split(this.name)[1];
    }
    get prefix() {
      return split(this.name)[0];
    }
    get specified() {
      return true;
    }
    toString() {
      return this.value;
    }
    toJSON() {
      return this.value;
    }
  }

  // `attributes`: the element's Attr nodes in document order, with the NamedNodeMap methods.
  class NamedNodeMap extends Array {
    item(i) {
      return i >= 0 && i < this.length ? this[i] : null;
    }
    getNamedItem(name) {
      return this.find((a) => a.name === name) || null;
    }
    getNamedItemNS(ns, local) {
      ns = ns === "" || ns === undefined ? null : ns;
      return this.find((a) => a.namespaceURI === ns && a.localName === local) || null;
    }
  }

  class Element extends Node {
    constructor(document, name, ns) {
      super();
      this.ownerDocument = document;
      this.parentNode = null;
      this.tagName = name;
      this.namespaceURI = ns;
      this.attributes = new NamedNodeMap();
      this.childNodes = new NodeList();
    }
    get nodeType() {
      return 1;
    }
    get nodeName() {
      return this.tagName;
    }
    get localName() {
      return split(this.tagName)[1];
    }
    get prefix() {
      return split(this.tagName)[0];
    }
    get children() {
      return NodeList.from(this.childNodes.filter((c) => c.nodeType === 1));
    }
    get firstElementChild() {
      return this.childNodes.find((c) => c.nodeType === 1) || null;
    }
    get childElementCount() {
      return this.childNodes.filter((c) => c.nodeType === 1).length;
    }
    getAttribute(name) {
      const a = this.attributes.getNamedItem(String(name));
      return a ? a.value : null;
    }
    getAttributeNS(ns, local) {
      const a = this.attributes.getNamedItemNS(ns, String(local));
      return a ? a.value : null;
    }
    hasAttribute(name) {
      return this.attributes.getNamedItem(String(name)) !== null;
    }
    hasAttributes() {
      return this.attributes.length > 0;
    }
    getAttributeNode(name) {
      return this.attributes.getNamedItem(String(name));
    }
    setAttribute(name, value) {
      name = String(name);
      const a = this.attributes.getNamedItem(name);
      if (a) a.value = String(value);
      else this.attributes.push(new Attr(this, name, name === "xmlns" || name.startsWith("xmlns:") ? XMLNS : null, String(value)));
    }
    removeAttribute(name) {
      const at = this.attributes.findIndex((a) => a.name === String(name));
      if (at >= 0) this.attributes.splice(at, 1);
    }
    getElementsByTagName(name) {
      return elementsByName(this, String(name));
    }
    getElementsByTagNameNS(ns, local) {
      return elementsByNameNS(this, ns, String(local));
    }
  }

  // Text (3), CDATA sections (4), comments (8) and processing instructions (7).
  class CharacterData extends Node {
    constructor(document, type, data) {
      super();
      this.ownerDocument = document;
      this.parentNode = null;
      this.data = data;
      Object.defineProperty(this, "type", { value: type });
    }
    get nodeType() {
      return this.type;
    }
    get nodeName() {
      switch (this.type) {
        case 3:
          return "#text";
        case 4:
          return "#cdata-section";
        case 8:
          return "#comment";
        default:
          return this.target;
      }
    }
    get childNodes() {
      return new NodeList();
    }
    get nodeValue() {
      return this.data;
    }
    set nodeValue(v) {
      this.data = String(v);
    }
    get textContent() {
      return this.data;
    }
    set textContent(v) {
      this.data = String(v);
    }
    get length() {
      return this.data.length;
    }
  }
  class Text extends CharacterData {}

  function build(tree) {
    const document = new Document();
    function add(parent, node) {
      let n;
      switch (node[0]) {
        case 1:
          n = new Element(document, node[1], node[2]);
          for (const [name, ns, value] of node[3]) n.attributes.push(new Attr(n, name, ns, value));
          for (const c of node[4]) add(n, c);
          break;
        case 7:
          n = new CharacterData(document, 7, node[2]);
          n.target = node[1];
          break;
        default:
          n = node[0] === 8 ? new CharacterData(document, 8, node[1]) : new Text(document, node[0], node[1]);
      }
      n.parentNode = parent;
      parent.childNodes.push(n);
    }
    for (const c of tree[1]) add(document, c);
    return document;
  }
  return build;
})()
