//! 13.2.6.1 Creating and inserting nodes: the appropriate place for inserting a node
//! (foster parenting, template contents), creating an element for a token, and inserting
//! elements, characters and comments there.

use std::borrow::Cow;

use htmltok::Span;

use super::state::TreeBuilder;
use super::token::TagTok;
use crate::dom::{Characters, NONE, NodeData, NodeId};
use crate::names::{Name, Ns, Tag};

impl<'a> TreeBuilder<'a> {
    /// The appropriate place for inserting a node: (parent, the node to insert before or
    /// NONE for "after its last child").
    pub(crate) fn insertion_place(&self, override_target: Option<NodeId>) -> (NodeId, NodeId) {
        let (target, target_name) = match override_target {
            Some(t) => (t, self.name_of(t)),
            None => match self.open.current() {
                Some(c) => c,
                None => return (0, NONE),
            },
        };
        let foster = self.foster_parenting
            && target_name.ns == Ns::Html
            && matches!(
                target_name.tag,
                Tag::Table | Tag::Tbody | Tag::Tfoot | Tag::Thead | Tag::Tr
            );
        if !foster {
            // The common case, answered from the target's name without reading the DOM:
            // only a template has its contents as the place.
            if !target_name.is_html(Tag::Template) {
                debug_assert_eq!(self.template_contents_place(target, NONE), (target, NONE));
                return (target, NONE);
            }
            return self.template_contents_place(target, NONE);
        }
        let (parent, before) = self.foster_place();
        self.template_contents_place(parent, before)
    }

    /// Foster parenting's place (13.2.6.1 step 2): before the last table, or in the last
    /// template after it.
    fn foster_place(&self) -> (NodeId, NodeId) {
        let items = self.open.items();
        let last_template = items.iter().rposition(|e| e.1.is_html(Tag::Template));
        let last_table = items.iter().rposition(|e| e.1.is_html(Tag::Table));
        match (last_template, last_table) {
            (Some(tp), Some(tb)) if tp > tb => (items[tp].0, NONE),
            (Some(tp), None) => (items[tp].0, NONE),
            (_, None) => (items[0].0, NONE),
            (_, Some(tb)) => {
                let table = items[tb].0;
                let parent = self.doc.nodes[table as usize].parent;
                if parent != NONE {
                    (parent, table)
                } else {
                    (items[tb - 1].0, NONE)
                }
            }
        }
    }

    /// "If the adjusted insertion location is inside a template element, let it instead
    /// be inside the template element's template contents".
    fn template_contents_place(&self, parent: NodeId, before: NodeId) -> (NodeId, NodeId) {
        if let NodeData::Element(e) = &self.doc.nodes[parent as usize].data
            && let Some(contents) = e.template_contents()
        {
            return (contents, NONE);
        }
        (parent, before)
    }

    pub(super) fn insert_at(&mut self, (parent, before): (NodeId, NodeId), child: NodeId) {
        if before == NONE {
            self.doc.append(parent, child);
        } else {
            self.doc.insert_before(before, child);
        }
    }

    /// Creates an element for a tag token in `ns` (13.2.6.1 "create an element for the
    /// token"), with the adjustments of foreign content already applied to the token.
    /// Always inlined: otherwise a call for each element off [`Self::append_html_element`].
    #[inline(always)]
    pub(crate) fn create_element(&mut self, tag: &mut TagTok<'a>, ns: Ns) -> (NodeId, Name) {
        let tag_id = tag.tag;
        // "Adjust SVG tag name" changes no interned name (`foreignObject` is interned and
        // spelled by `Name::known_local_name`), so only an uninterned SVG name is looked
        // up: `<path>`, `<g>`, `<svg>` skip the list.
        let local = if tag_id != Tag::Unknown {
            None
        } else if ns == Ns::Svg
            && let Some(adjusted) = crate::names::adjust_svg_tag_name(&tag.other_name)
        {
            Some(self.doc.store(self.input, Cow::Borrowed(adjusted)))
        } else {
            Some(self.doc.store(self.input, tag.other_name.clone()))
        };
        debug_assert!(
            tag_id == Tag::Unknown
                || ns != Ns::Svg
                || crate::names::adjust_svg_tag_name(tag.name()).is_none()
        );
        let name = Name { ns, tag: tag_id };
        // Known while the attributes are the tag's; compiled out of `insert_html_element`,
        // which knows the namespace.
        let integration_point = ns == Ns::MathMl
            && tag_id == Tag::AnnotationXml
            && tag.has_attrs
            && self.doc.encoding_is_html_integration_point(self.input);
        let id = self.doc.new_element(name, local, tag.has_attrs, tag.span);
        if integration_point {
            self.doc.element_mut(id).html_integration_point = true;
        }
        (id, name)
    }

    /// 13.2.6.1 "insert an HTML element" for a start tag: at the appropriate place, and
    /// pushed onto the stack of open elements.
    /// Its own copy of [`Self::insert_element`] with the namespace known, so that the
    /// SVG name adjustment and the MathML checks are compiled out of the common case.
    #[inline(never)]
    pub(crate) fn insert_html_element(&mut self, tag: &mut TagTok<'a>) -> NodeId {
        self.insert_element(tag, Ns::Html)
    }

    /// 13.2.6.1 "insert a foreign element".
    pub(crate) fn insert_foreign_element(&mut self, tag: &mut TagTok<'a>, ns: Ns) -> NodeId {
        self.insert_element(tag, ns)
    }

    /// "Insert a foreign element" in `ns` ("insert an HTML element" is the same in the
    /// HTML namespace). In the HTML namespace, the common case first
    /// ([`Self::append_html_element`]); every other case is a call.
    #[inline(always)]
    pub(crate) fn insert_element(&mut self, tag: &mut TagTok<'a>, ns: Ns) -> NodeId {
        if ns == Ns::Html {
            if let Some(id) = self.append_html_element(tag) {
                return id;
            }
            return self.insert_html_element_general(tag);
        }
        self.insert_element_in(tag, ns)
    }

    /// Shortcut of 13.2.6.1 "insert an HTML element" when its "appropriate place for
    /// inserting a node" is after the current node's last child (no foster parenting, and no `template` on
    /// the stack, so that the current node is not one) and the element is made of its
    /// tag alone (an interned name, not `template`): through `Dom::append_element`, whose
    /// links are written once. None, doing nothing, in every other case. The stack's
    /// push inlined too (`OpenElements::push_html_with_room`): left a call, it would give
    /// back nearly all of the gain. Room in the arena and on the stack is tested first,
    /// and the element pushed onto the stack before the DOM makes it, so that nothing
    /// grows on this path and its one call (the arena order's walk) is the last, a tail
    /// call, and the path saves fewer registers.
    #[inline(always)]
    fn append_html_element(&mut self, tag: &TagTok<'a>) -> Option<NodeId> {
        let (parent, _) = self.open.current()?;
        if self.foster_parenting
            || tag.tag == Tag::Unknown
            || tag.tag == Tag::Template
            || self.open.contains_tag(Tag::Template)
        {
            return None;
        }
        debug_assert_eq!(self.insertion_place(None), (parent, NONE));
        let id = self.doc.next_id_with_room()?;
        let name = Name::html(tag.tag);
        if !self.open.push_html_with_room(id, name) {
            return None;
        }
        Some(
            self.doc
                .append_element(id, parent, name, tag.has_attrs, tag.span),
        )
    }

    /// [`Self::insert_element`] in the HTML namespace, in every case.
    #[inline(never)]
    fn insert_html_element_general(&mut self, tag: &mut TagTok<'a>) -> NodeId {
        self.insert_element_in(tag, Ns::Html)
    }

    /// [`Self::insert_element`] in every case.
    /// Always inlined: otherwise one copy called by both, the namespace not known in it.
    #[inline(always)]
    fn insert_element_in(&mut self, tag: &mut TagTok<'a>, ns: Ns) -> NodeId {
        let place = self.insertion_place(None);
        let (id, name) = self.create_element(tag, ns);
        self.insert_at(place, id);
        self.open.push(id, name);
        id
    }

    /// Inserts an HTML element the parser implies (no token: `<html>`, `<head>`, `<body>`,
    /// `<tbody>`, …), with an empty span at `at`.
    pub(crate) fn insert_implied(&mut self, tag: Tag, at: usize) -> NodeId {
        let mut t = TagTok::implied(tag, at);
        self.insert_html_element(&mut t)
    }

    /// Inserts an element and pops it at once (void elements).
    pub(crate) fn insert_void(&mut self, tag: &mut TagTok<'a>) -> NodeId {
        let id = self.insert_html_element(tag);
        self.open.pop();
        id
    }

    /// 13.2.6.1 "insert a character" (a run of them) at the appropriate place: the one
    /// entry for text in every form the rules hold it ([`Characters`]: decoded, raw or
    /// lazy); the document decides how to store it ([`Dom::insert_characters`](crate::dom::Dom::insert_characters)).
    pub(crate) fn insert_characters(&mut self, characters: Characters<'_, 'a>) {
        let (parent, before) = self.insertion_place(None);
        // Text is never a child of the document, node 0 (the only `NodeData::Document`):
        // compared by id, the parent's node is not read.
        if parent == 0 {
            return;
        }
        self.doc
            .insert_characters(self.input, parent, before, characters);
    }

    /// 13.2.6.1 "insert a comment", at the appropriate place or as the last child of
    /// `parent`.
    pub(crate) fn insert_comment(
        &mut self,
        data: Cow<'a, str>,
        span: Span,
        parent: Option<NodeId>,
    ) {
        let place = match parent {
            Some(p) => (p, NONE),
            None => self.insertion_place(None),
        };
        let id = self.doc.new_comment(self.input, data, span);
        self.insert_at(place, id);
    }
}
