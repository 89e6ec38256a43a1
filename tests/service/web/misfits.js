// What does not fit a phone's screen, found in the page (for test_web_browser.py): elements
// wider than the screen or sticking out of it sideways (outside a box that scrolls them),
// content spilling out of its box, menu options wider than their menu, and controls that
// cannot be scrolled to and clicked (off the screen, or covered where they show). Each
// finding is a sentence naming the element; none is the page fitting.
() => {
    const vw = document.documentElement.clientWidth;
    const vh = window.innerHeight;
    const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
        [...el.classList].map((c) => '.' + c).join('') +
        (el.dataset.seat ? `[seat ${el.dataset.seat}]` : '') +
        (el.dataset.card ? `[${el.dataset.card}]` : '') + (el.name ? `[${el.name}]` : '');
    const scrolled = (el) => {
        for (let a = el.parentElement; a; a = a.parentElement) {
            if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(a).overflowX)) return true;
        }
        return false;
    };
    // checkVisibility also counts what a closed <details> holds as hidden (Chromium keeps
    // its boxes, skipped by content-visibility).
    const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden' &&
        (!el.checkVisibility || el.checkVisibility({ contentVisibilityAuto: true }));
    const found = [];
    for (const el of document.querySelectorAll('body *')) {
        if (!shown(el) || el.closest('svg') && el.tagName !== 'svg') continue;
        const r = el.getBoundingClientRect();
        if (r.width > vw + 0.5) found.push(`${name(el)} is ${Math.round(r.width)} px wide`);
        else if ((r.left < -0.5 || r.right > vw + 0.5) && !scrolled(el)) {
            found.push(`${name(el)} sticks out of the screen (${Math.round(r.left)} to ${Math.round(r.right)})`);
        }
        const style = getComputedStyle(el);
        if (style.overflowX === 'visible' && el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1) {
            found.push(`${name(el)} spills: ${el.scrollWidth} px of content in ${el.clientWidth}`);
        }
    }
    const ruler = document.createElement('canvas').getContext('2d');
    for (const select of document.querySelectorAll('select')) {
        if (!shown(select)) continue;
        const style = getComputedStyle(select);
        ruler.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        // Room for the text: the box less its padding and the arrow (about 20 px).
        const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
        for (const option of select.options) {
            const width = ruler.measureText(option.text).width;
            if (width > room) found.push(`${name(select)}: "${option.text}" is cut (${Math.round(width)} px in ${Math.round(room)})`);
        }
    }
    const start = [window.scrollX, window.scrollY];
    for (const el of document.querySelectorAll('button, select, input, summary, a[href]')) {
        if (!shown(el)) continue;
        el.scrollIntoView({ block: 'center', inline: 'center' });
        const r = el.getBoundingClientRect();
        const x = r.left + r.width / 2;
        const y = r.top + r.height / 2;
        if (r.left < -0.5 || r.right > vw + 0.5 || r.top < -0.5 || r.bottom > vh + 0.5) {
            found.push(`${name(el)} cannot be scrolled into the screen`);
            continue;
        }
        const hit = document.elementFromPoint(x, y);
        if (!hit || !(el === hit || el.contains(hit) || (el.labels && [...el.labels].some((l) => l.contains(hit))))) {
            found.push(`${name(el)} is covered by ${hit ? name(hit) : 'nothing'}`);
        }
    }
    window.scrollTo(...start);
    if (document.documentElement.scrollWidth > vw) {
        found.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} px in ${vw}`);
    }
    return found;
}
