//! 13.2.6.5 The rules for parsing tokens in foreign content, the dispatcher's test for
//! them (13.2.6), and the attribute adjustments of 13.2.6.3.

use std::borrow::Cow;

use super::state::{Step, TreeBuilder};
use super::token::{TagTok, Tok};
use crate::dom::NodeId;
use crate::names::{AttrNs, Name, Ns, Tag, adjust_foreign_attribute, adjust_svg_attribute};

impl<'a> TreeBuilder<'a> {
    /// 13.2.6: true when the token goes to the rules for foreign content.
    pub(super) fn is_foreign_token(&self, tok: &Tok<'a>) -> bool {
        // Asked at each step of the dispatcher. With no foreign element open and no
        // fragment context (the stack's count, one load, as for
        // `adjusted_current_is_foreign`) the adjusted current node is an HTML element;
        // finding it first read the context and the stack's last entry.
        debug_assert!(self.open.has_foreign() || !self.is_foreign_token_general(tok));
        self.open.has_foreign() && self.is_foreign_token_general(tok)
    }

    /// [`Self::is_foreign_token`] with a foreign element open or a fragment context.
    fn is_foreign_token_general(&self, tok: &Tok<'a>) -> bool {
        let Some((node, name)) = self.adjusted_current() else {
            return false;
        };
        if name.ns == Ns::Html {
            return false;
        }
        let start = match tok {
            Tok::Tag(t) if !t.end => Some(t.tag),
            _ => None,
        };
        let chars = matches!(tok, Tok::Text(_));
        if name.is_mathml_text_integration_point()
            && (chars || start.is_some_and(|t| t != Tag::Mglyph && t != Tag::Malignmark))
        {
            return false;
        }
        if name.ns == Ns::MathMl && name.tag == Tag::AnnotationXml && start == Some(Tag::Svg) {
            return false;
        }
        if self.is_html_integration_point(node, name) && (chars || start.is_some()) {
            return false;
        }
        !matches!(tok, Tok::Eof)
    }

    /// 13.2.6 "HTML integration point".
    pub(super) fn is_html_integration_point(&self, node: NodeId, name: Name) -> bool {
        name.is_svg_html_integration_point()
            || (name.ns == Ns::MathMl
                && name.tag == Tag::AnnotationXml
                && self.doc.element(node).html_integration_point)
    }

    /// 13.2.6.3 "adjust MathML attributes" / "adjust SVG attributes", then "adjust foreign
    /// attributes", for an element in `ns`.
    pub(super) fn adjust_foreign_attrs(&mut self, tag: &mut TagTok<'a>, ns: Ns) {
        if !tag.has_attrs {
            return;
        }
        let input = self.input;
        for i in self.doc.tag_attrs_start..self.doc.attrs.len() {
            let name = self.doc.bytes(input, self.doc.attrs[i].name);
            let adjusted = match ns {
                Ns::MathMl if name == b"definitionurl" => Some("definitionURL"),
                Ns::Svg => adjust_svg_attribute(name),
                _ => None,
            };
            if let Some(adjusted) = adjusted {
                self.doc.attrs[i].name = self.doc.store(input, Cow::Borrowed(adjusted));
            }
            let name = self.doc.bytes(input, self.doc.attrs[i].name);
            if let Some((attr_ns, local)) = adjust_foreign_attribute(name) {
                self.doc.attrs[i].ns = attr_ns;
                self.doc.attrs[i].name = self.doc.store(input, Cow::Borrowed(local));
            } else {
                self.doc.attrs[i].ns = AttrNs::None;
            }
        }
    }

    // 13.2.6.5 The rules for parsing tokens in foreign content
    pub(super) fn foreign_content(&mut self, tok: &mut Tok<'a>) -> Step {
        use Tag::*;
        match tok {
            Tok::Text(text) => {
                debug_assert!(
                    !matches!(text.mark, super::token::Mark::Raw(_)),
                    "decoded before the dispatcher"
                );
                // U+0000 becomes U+FFFD without clearing frameset-ok.
                if text.text.bytes().any(|c| c != 0 && !super::token::is_ws(c)) {
                    self.set_frameset_not_ok();
                }
                if text.has_nul() {
                    text.text = Cow::Owned(text.text.replace('\0', "\u{FFFD}"));
                    text.exact = false;
                }
                self.insert_characters(text.characters());
                Step::Done
            }
            Tok::Comment(data, span) => {
                self.insert_comment(data.clone(), *span, None);
                Step::Done
            }
            Tok::Doctype(_) | Tok::Eof => Step::Done,
            Tok::Tag(tag) => {
                let breaks_out = if tag.end {
                    matches!(tag.tag, Br | P)
                } else {
                    matches!(
                        tag.tag,
                        B | Big
                            | Blockquote
                            | Body
                            | Br
                            | Center
                            | Code
                            | Dd
                            | Div
                            | Dl
                            | Dt
                            | Em
                            | Embed
                            | H1
                            | H2
                            | H3
                            | H4
                            | H5
                            | H6
                            | Head
                            | Hr
                            | I
                            | Img
                            | Li
                            | Listing
                            | Menu
                            | Meta
                            | Nobr
                            | Ol
                            | P
                            | Pre
                            | Ruby
                            | S
                            | Small
                            | Span
                            | Strong
                            | Strike
                            | Sub
                            | Sup
                            | Table
                            | Tt
                            | U
                            | Ul
                            | Var
                    ) || (tag.tag == Font
                        && tag.has_attrs
                        && self.doc.tag_attrs().iter().any(|a| {
                            matches!(
                                self.doc.bytes(self.input, a.name),
                                b"color" | b"face" | b"size"
                            )
                        }))
                };
                if breaks_out {
                    while let Some((node, name)) = self.open.current() {
                        if name.ns == Ns::Html
                            || name.is_mathml_text_integration_point()
                            || self.is_html_integration_point(node, name)
                        {
                            break;
                        }
                        self.open.pop();
                    }
                    return Step::ReprocessHtml;
                }
                if !tag.end {
                    let ns = self.adjusted_current().map_or(Ns::Html, |c| c.1.ns);
                    self.adjust_foreign_attrs(tag, ns);
                    self.insert_foreign_element(tag, ns);
                    if tag.self_closing {
                        self.open.pop();
                    }
                    return Step::Done;
                }
                self.foreign_end_tag(tag)
            }
        }
    }

    /// 13.2.6.5, an end tag in foreign content ("script" in SVG included: no script
    /// runs, so it is popped like any other).
    fn foreign_end_tag(&mut self, tag: &TagTok<'a>) -> Step {
        let mut i = self.open.len() - 1;
        loop {
            if i == 0 {
                return Step::Done;
            }
            let (node, name) = self.open.get(i);
            // "If node's tag name, converted to ASCII lowercase, is the same as the tag
            // name of the token": when either name is interned, that is the same tag id
            // (the end tag's name is lowercase, and every lowercase spelling of an
            // interned name is interned: `foreignObject` is `Tag::ForeignObject`); only
            // two uninterned names are compared by text. The common `</path>`, `</g>`
            // then cost no call and no string compare.
            let same = if name.tag != Tag::Unknown || tag.tag != Tag::Unknown {
                name.tag == tag.tag
            } else {
                self.doc
                    .local_name(self.input, node)
                    .eq_ignore_ascii_case(tag.name())
            };
            if same {
                self.open.truncate(i);
                self.doc.element_mut(node).set_end(tag.span);
                return Step::Done;
            }
            i -= 1;
            if self.open.get(i).1.ns == Ns::Html {
                let _ = name;
                return Step::ReprocessHtml;
            }
        }
    }
}
