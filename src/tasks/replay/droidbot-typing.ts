/**
 * What some DroidBot versions type for a set_text of `text`, as the optional `typedAlso`
 * of a replayed set-text. DroidBot types through its IME with
 * `am broadcast … --es text "<text>"`; versions whose adb wrapper splits the command on
 * spaces and shell-quotes each word send the quotes along, so the field ends up holding
 * `"text"`. (A text with a space is cut into words there: the broadcast is malformed and
 * types nothing, so there is no other form to accept.)
 */
export function droidBotTypedAlso(text: string): { readonly typedAlso?: string } {
  return text === '' || /\s/.test(text) ? {} : { typedAlso: `"${text}"` };
}
