// Trading: the open domestic offer (panel), the bank trade dialog, and the offer and counter-offer dialog.
import { submit } from "./connection.js";
import { counters, openDialog } from "./dialogs.js";
import { button, node, swatch } from "./dom.js";
import { t } from "./i18n.js";
import { $, app, cardsText, has, me, nonZero, RESOURCES, seatName, total, zeroCards } from "./state.js";

export function termsLine(label, cards) {
  return node("div", { class: "terms-line" }, node("span", { class: "terms-label", text: label }),
    node("span", { class: "terms-cards", text: cardsText(cards) }));
}

export function renderTrade() {
  const panel = $("trade-panel");
  panel.replaceChildren();
  const trade = app.view.trade;
  panel.hidden = !trade;
  if (!trade) return;
  const you = app.yourSeat;
  if (trade.from === you) {
    panel.append(node("h3", { text: t("your_offer") }),
      termsLine(t("you_give"), trade.give), termsLine(t("you_get"), trade.get));
    const replies = node("ul", { class: "replies" });
    for (const seat of trade.to) {
      const reply = trade.replies[String(seat)];
      const line = node("li", { "data-seat": seat }, swatch(seat), node("span", { text: seatName(seat) }));
      if (!reply) line.append(node("span", { class: "reply pending", text: t("reply_pending") }));
      else if (reply.reply === "counter") {
        line.append(node("span", { class: "reply counter", text: t("reply_counter") }),
          node("span", { class: "terms-cards", text: t("counter_terms", { give: cardsText(reply.give), get: cardsText(reply.get) }) }));
      } else line.append(node("span", { class: `reply ${reply.reply}`, text: t(`reply_${reply.reply}`) }));
      const confirm = app.legal.find((a) => a.type === "confirm_trade" && a.seat === seat);
      if (confirm && !app.awaiting) {
        line.append(button(t("confirm_with", { who: seatName(seat) }), () => submit(confirm),
          { id: `btn-confirm-trade-${seat}`, class: "button small primary" }));
      }
      // A counter-offer is answered: trade on its terms (above), or turn it down (the offer stays open to others).
      const decline = app.legal.find((a) => a.type === "reject_counter" && a.seat === seat);
      if (decline && !app.awaiting) {
        line.append(button(t("decline_counter"), () => submit(decline),
          { id: `btn-reject-counter-${seat}`, class: "button small secondary" }));
      }
      replies.append(line);
    }
    panel.append(replies);
    if (has("cancel_trade") && !app.awaiting) {
      panel.append(button(t("cancel_offer"), () => submit({ type: "cancel_trade" }), { id: "btn-cancel-trade", class: "button secondary" }));
    }
    return;
  }
  panel.append(node("h3", { text: t("offer_from", { who: seatName(trade.from) }) }));
  const involved = you !== null && trade.to.includes(you);
  if (involved) {
    // The terms are stored from the offering player's side; show them from this player's side.
    panel.append(termsLine(t("you_give"), trade.get), termsLine(t("you_get"), trade.give));
  } else {
    panel.append(termsLine(t("they_give", { who: seatName(trade.from) }), trade.give),
      termsLine(t("they_get", { who: seatName(trade.from) }), trade.get));
  }
  const mine = involved ? trade.replies[String(you)] : null;
  if (mine) panel.append(node("p", { class: "muted", text: t(`you_replied_${mine.reply}`) }));
  if (has("reject_trade") && !app.awaiting) {
    const row = node("div", { class: "button-row" });
    if (has("accept_trade")) row.append(button(t("accept"), () => submit({ type: "accept_trade" }), { id: "btn-accept-trade", class: "button primary" }));
    else row.append(node("span", { class: "muted small", text: t("cannot_accept") }));
    row.append(button(t("counter"), () => openOffer("counter"), { id: "btn-counter-trade", class: "button" }));
    row.append(button(t("reject"), () => submit({ type: "reject_trade" }), { id: "btn-reject-trade", class: "button secondary" }));
    panel.append(row);
  }
}

export function openBankTrade() {
  const trades = app.legal.filter((a) => a.type === "trade_bank");
  if (!trades.length) return;
  const rates = me().harbour_rates;
  const choice = { give: null, get: null };
  let giveRow, getRow, summary, confirm;
  const action = () => trades.find((a) => a.give === choice.give && a.get === choice.get);
  const update = () => {
    for (const b of giveRow.children) b.setAttribute("aria-pressed", String(b.dataset.resource === choice.give));
    for (const b of getRow.children) {
      const r = b.dataset.resource;
      b.disabled = !trades.some((a) => a.get === r && (choice.give === null || a.give === choice.give));
      b.setAttribute("aria-pressed", String(r === choice.get));
    }
    const chosen = action();
    summary.textContent = chosen
      ? t("bank_summary", { n: rates[chosen.give], give: t(chosen.give), get: t(chosen.get) })
      : t("bank_pick");
    confirm.disabled = !chosen;
  };
  openDialog({
    kind: "bank",
    title: t("bank_title"),
    valid: () => has("trade_bank"),
    build: (box, footer) => {
      const rateList = node("div", { class: "rates" });
      for (const r of RESOURCES) {
        rateList.append(node("span", { class: `chip res-${r}${rates[r] < 4 ? " better" : ""}`, "data-resource": r },
          node("span", { class: "chip-name", text: t(r) }), node("b", { text: `${rates[r]}:1` })));
      }
      box.append(node("h3", { text: t("your_rates") }), rateList);
      giveRow = node("div", { class: "choice-list resources", id: "bank-give" });
      for (const r of RESOURCES.filter((x) => trades.some((a) => a.give === x))) {
        giveRow.append(button(`${rates[r]} ${t(r)}`, () => {
          choice.give = r;
          if (choice.get === r || !action()) choice.get = null;
          update();
        }, { class: `button choice res-${r}`, "data-resource": r }));
      }
      getRow = node("div", { class: "choice-list resources", id: "bank-get" });
      for (const r of RESOURCES) {
        getRow.append(button(`1 ${t(r)}`, () => {
          choice.get = r;
          if (!action()) choice.give = trades.find((a) => a.get === r)?.give ?? choice.give;
          update();
        }, { class: `button choice res-${r}`, "data-resource": r }));
      }
      summary = node("p", { class: "summary" });
      confirm = button(t("trade"), () => { const a = action(); if (a) submit(a); }, { id: "dialog-confirm", class: "button primary" });
      box.append(node("h3", { text: t("you_give") }), giveRow, node("h3", { text: t("you_get") }), getRow, summary);
      footer.append(confirm);
    },
  });
  update();
}

// A new offer (the active player) or a counter-offer (a player the offer was made to). Both are edited from
// this player's own side; the engine wants the active player's side, so a counter swaps give and get.
export function openOffer(mode) {
  const mine = me();
  const trade = app.view.trade;
  if (!mine || (mode === "counter" && !trade)) return;
  const give = zeroCards();
  const get = zeroCards();
  if (mode === "counter") {
    Object.assign(give, trade.get);
    Object.assign(get, trade.give);
    for (const r of RESOURCES) give[r] = Math.min(give[r], mine.resources[r]);
  }
  const others = app.view.seats.map((s) => s.seat).filter((s) => s !== app.yourSeat);
  const targets = new Set(others);
  let list, confirm, summary;
  const update = () => {
    list.refresh();
    const overlap = RESOURCES.some((r) => give[r] && get[r]);
    const ok = total(give) > 0 && total(get) > 0 && !overlap && (mode === "counter" || targets.size > 0);
    // Never "you give nothing and get nothing": an empty side asks for cards instead.
    if (overlap) summary.textContent = t("offer_overlap");
    else if (!total(give) || !total(get)) summary.textContent = t("offer_pick");
    else summary.textContent = t("offer_summary", { give: cardsText(give), get: cardsText(get) });
    confirm.disabled = !ok;
  };
  openDialog({
    kind: mode,
    title: mode === "counter" ? t("counter_title", { who: seatName(trade.from) }) : t("offer_title"),
    valid: () => (mode === "counter" ? has("reject_trade") : has("end_turn") && !app.view.trade),
    build: (box, footer) => {
      list = counters([
        { counts: give, limit: (r) => mine.resources[r], idPrefix: "offer-give", label: t("you_give") },
        { counts: get, limit: () => 19, idPrefix: "offer-get", label: t("you_get") },
      ], update);
      box.append(list);
      if (mode === "offer") {
        const to = node("fieldset", { class: "recipients", id: "offer-to" }, node("legend", { text: t("offer_to") }));
        for (const seat of others) {
          const check = node("input", { type: "checkbox", value: String(seat), checked: true, onchange: (e) => {
            if (e.target.checked) targets.add(seat); else targets.delete(seat);
            update();
          } });
          to.append(node("label", { class: "recipient" }, check, swatch(seat), node("span", { text: seatName(seat) })));
        }
        box.append(to);
      }
      summary = node("p", { class: "summary" });
      box.append(summary);
      confirm = button(mode === "counter" ? t("send_counter") : t("send_offer"), () => {
        if (mode === "counter") submit({ type: "counter_trade", give: nonZero(get), get: nonZero(give) });
        else submit({ type: "offer_trade", give: nonZero(give), get: nonZero(get), to: others.filter((s) => targets.has(s)) });
      }, { id: "dialog-confirm", class: "button primary" });
      footer.append(confirm);
    },
  });
  update();
}
