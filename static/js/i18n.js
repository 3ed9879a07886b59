// The game client's strings in English and French. The page's <html lang> picks the table; a missing key falls
// back to English, then to the key itself. `{name}` in a string is replaced by params.name. When params.n is
// given and the table has `key_one`, that form is used for a single item (n ≤ 1 in French, n = 1 in English).

const STRINGS = {
  en: {
    // connection
    connection_connecting: "Connecting…", connection_connected: "Live", connection_reconnecting: "Reconnecting…",
    connection_refused: "No access", offline: "Not connected: wait a moment and try again.",
    error_generic: "Something went wrong.",

    // resources, cards, terrain
    lumber: "Lumber", brick: "Brick", wool: "Wool", grain: "Grain", ore: "Ore",
    knight: "Knight", road_building: "Road Building", year_of_plenty: "Year of Plenty", monopoly: "Monopoly",
    victory_point: "Victory Point",
    terrain_forest: "Forest", terrain_hills: "Hills", terrain_pasture: "Pasture", terrain_fields: "Fields",
    terrain_mountains: "Mountains", terrain_desert: "Desert", terrain_sea: "Sea", terrain_gold: "Gold field",
    terrain_fog: "Unexplored",
    robber: "The robber", pirate: "The pirate",
    harbour_generic: "Harbour: 3 of a kind for 1", harbour_special: "Harbour: 2 {resource} for 1",
    island_bonus: "Island bonus: +{n} VP",

    // board spots
    spot_build_settlement: "Build a settlement here", spot_build_city: "Upgrade to a city",
    spot_build_road: "Build a road here", spot_build_ship: "Build a ship here",
    spot_move_robber: "Move the robber to {place}", spot_move_pirate: "Move the pirate to {place}",
    spot_move_token: "Move this number token ({place})", spot_ship_source: "Move this ship",
    spot_ship_selected: "Selected ship (click again to cancel)", spot_move_ship: "Move the ship here",

    // people
    you: "you", bot: "bot", bot_name: "Bot {n}", nobody: "nobody", someone: "someone",

    // prompts: your move
    prompt_sending: "Sending…",
    prompt_setup_settlement_first: "Place your first settlement on a highlighted corner.",
    prompt_setup_settlement_second: "Place your second settlement on a highlighted corner.",
    prompt_setup_road: "Place a road next to your new settlement.",
    prompt_setup_ship: "Place a ship next to your new settlement.",
    prompt_setup_road_or_ship: "Place a road or a ship next to your new settlement.",
    prompt_roll: "Roll the dice.",
    prompt_roll_or_card: "Roll the dice, or play a development card first.",
    prompt_main: "Build, trade, play a card — or end your turn.",
    prompt_discard: "Discard {n} cards.", prompt_discard_one: "Discard 1 card.",
    prompt_robber: "Move the robber: tap a highlighted hex.",
    prompt_pirate: "Move the pirate: tap a highlighted sea hex.",
    prompt_robber_or_pirate: "Move the robber or the pirate: tap a highlighted hex.",
    prompt_road_building: "Place {n} free roads or ships.", prompt_road_building_one: "Place 1 free road or ship.",
    prompt_gold: "Choose {n} resources from the gold field.", prompt_gold_one: "Choose 1 resource from the gold field.",
    prompt_place_token: "Choose a number token to move to the new island.",
    prompt_trade_answer: "{who} offers you a trade: accept, counter or reject.",
    prompt_trade_wait: "Waiting for {who} to answer your offer.",
    prompt_trade_decide: "Everyone has answered: confirm a trade or cancel the offer.",
    prompt_game_over: "Game over: {who} wins!",
    status_paused: "The game is paused.", status_cancelled: "The game was cancelled.",

    // prompts: someone else's move
    wait_setup_settlement: "{who} is placing a settlement.",
    wait_setup_road: "{who} is placing a road.",
    wait_roll: "Waiting for {who} to roll.",
    wait_main: "{who} is playing.",
    wait_discard: "Waiting for {who} to discard.",
    wait_robber: "{who} is moving the robber.",
    wait_road_building: "{who} is building free roads.",
    wait_gold: "Waiting for {who} to choose gold resources.",
    wait_place_token: "{who} is moving a number token.",
    wait_trade: "Waiting for {who} to answer the trade offer.",
    wait_game_over: "Game over.",

    // actions
    roll: "Roll dice", end_turn: "End turn", buy_development: "Buy development card", trade_bank: "Trade with bank",
    offer_trade: "Offer a trade", play_card: "Play {card}", discard_open: "Discard {n}", gold_open: "Choose gold ({n})",
    close: "Close", trade: "Trade", accept: "Accept", reject: "Reject", counter: "Counter",

    // panels
    spectating: "You are watching this game.",
    development_cards: "Development cards", dev_playable: "playable", dev_new: "bought this turn: playable next turn",
    dev_secret: "kept secret: counts at the end",
    pieces_left: "Pieces left", roads: "roads", settlements: "settlements", cities: "cities", ships: "ships",
    victory_points: "VP", resource_cards: "cards", development_short: "dev.", knights: "knights", road_length: "road",
    longest_road: "Longest Road", largest_army: "Largest Army", vp_tokens: "+{n} VP tokens", vp_tokens_one: "+1 VP token",
    owes_discard: "discards {n}", owes_gold: "gold: {n}", to_move: "to play",
    no_roll_yet: "Not rolled yet this turn", last_roll: "Last roll: {a} + {b} = {sum}", deck: "Deck",

    // trades
    your_offer: "Your offer", you_give: "You give", you_get: "You get", they_give: "{who} gives", they_get: "{who} gets",
    offer_from: "Offer from {who}", reply_pending: "waiting…", reply_accept: "accepts", reply_reject: "rejects",
    reply_counter: "counters:", counter_terms: "you give {give}, you get {get}", confirm_with: "Trade with {who}",
    cancel_offer: "Cancel the offer", cannot_accept: "You do not hold the cards asked for.",
    you_replied_accept: "You accepted. Waiting for the offer to be confirmed.",
    you_replied_reject: "You rejected this offer.", you_replied_counter: "You made a counter-offer.",
    offer_title: "Offer a trade", counter_title: "Counter-offer to {who}", offer_to: "Offer to",
    offer_summary: "You give {give} and get {get}.", offer_overlap: "A resource cannot be both given and asked for.",
    send_offer: "Send the offer", send_counter: "Send the counter-offer",

    // dialogs
    discard_title: "Discard {n} cards", discard_title_one: "Discard 1 card",
    discard_intro: "You hold {held} cards: choose {n} to return to the bank.",
    discard_confirm: "Discard", gold_title: "Gold field: choose {n} resources", gold_title_one: "Gold field: choose 1 resource",
    gold_intro: "Take {n} resources of your choice from the bank.", gold_confirm: "Take them",
    chosen_of: "{n} of {owed} chosen", of_held: "of {n}", in_bank: "bank: {n}",
    less: "One less {resource}", more: "One more {resource}",
    victim_title: "Steal a card from whom?", victim_title_pirate: "The pirate robs whom?",
    cards_held: "{n} cards", cards_held_one: "1 card",
    plenty_title: "Year of Plenty", plenty_intro: "Take {n} resources of your choice from the bank.",
    monopoly_title: "Monopoly", monopoly_intro: "Name a resource: every other player gives you all of theirs.",
    bank_title: "Trade with the bank", your_rates: "Your rates", bank_pick: "Choose what you give and what you get.",
    bank_summary: "Give {n} {give} for 1 {get}.",

    // end of game
    winner: "{who} wins!", player: "Player", vp_cards: "VP cards", awards: "Awards",
    histogram: "Dice rolled this game", histogram_legend: "Bars: times rolled. Dashed lines: what fair dice would give on average.",
    histogram_bar: "{n}: rolled {count} times (expected {expected})",
    seed_revealed: "Seed: {seed} (published commitment: {commitment}). Replay the game from it to check every roll.",

    // chat
    chat_hidden: "(message hidden by a moderator)",

    // log
    nothing: "nothing",
    ev_rolled: "{who} rolled {sum} ({a} + {b})",
    ev_produced: "{who} received {cards}", ev_produced_none: "Nobody produced anything.",
    ev_starting_resources: "{who} received starting resources: {cards}",
    ev_must_discard: "{who} must discard {n} cards", ev_must_discard_one: "{who} must discard 1 card",
    ev_discarded: "{who} discarded {cards}",
    ev_moved_robber: "{who} moved the robber to {place}", ev_moved_pirate: "{who} moved the pirate",
    ev_stole: "{who} stole a card from {victim}",
    ev_stolen_card_thief: "You stole 1 {resource} from {victim}",
    ev_stolen_card_victim: "{who} stole 1 {resource} from you",
    ev_built_settlement: "{who} built a settlement", ev_built_city: "{who} built a city",
    ev_built_road: "{who} built a road", ev_built_ship: "{who} built a ship", ev_moved_ship: "{who} moved a ship",
    ev_longest_road: "{who} takes the Longest Road ({n})", ev_longest_road_none: "Nobody holds the Longest Road now",
    ev_largest_army: "{who} takes the Largest Army ({n} knights)", ev_largest_army_none: "Nobody holds the Largest Army now",
    ev_bought_development: "{who} bought a development card",
    ev_drew_development: "You drew: {card}",
    ev_played_knight: "{who} played a Knight", ev_played_road_building: "{who} played Road Building",
    ev_played_year_of_plenty: "{who} played Year of Plenty: {cards}",
    ev_played_monopoly: "{who} played Monopoly on {resource} and took {n}",
    ev_traded_bank: "{who} traded {n} {give} with the bank for 1 {get}",
    ev_trade_offered: "{who} offers {give} for {get} (to {to})",
    ev_trade_accept: "{who} accepts the offer", ev_trade_reject: "{who} rejects the offer",
    ev_trade_counter: "{who} counters: {give} for {get}",
    ev_trade_cancelled: "{who} withdrew the offer",
    ev_traded: "{who} traded {give} with {partner} for {get}",
    ev_turn: "{who}'s turn",
    ev_game_won: "{who} wins the game with {n} points!",
    ev_gold_owed: "{who} may take {n} from the gold field", ev_chose_gold: "{who} took {cards} from the gold field",
    ev_revealed: "{who} discovered {terrain}", ev_revealed_token: "{who} discovered {terrain} ({n})",
    ev_token_drawn: "{who} drew number {n}", ev_moved_token: "{who} moved number {n}",
    ev_island_bonus: "{who} settled a new island: +{n} VP",
    ev_trade_line: "{who} opened a trade line", ev_trade_line_lost: "{who} lost a trade line",
  },
  fr: {
    connection_connecting: "Connexion…", connection_connected: "En direct", connection_reconnecting: "Reconnexion…",
    connection_refused: "Accès refusé", offline: "Pas de connexion : patientez un instant et réessayez.",
    error_generic: "Une erreur est survenue.",

    lumber: "Bois", brick: "Argile", wool: "Laine", grain: "Blé", ore: "Minerai",
    knight: "Chevalier", road_building: "Construction de routes", year_of_plenty: "Invention", monopoly: "Monopole",
    victory_point: "Point de victoire",
    terrain_forest: "Forêt", terrain_hills: "Colline", terrain_pasture: "Pré", terrain_fields: "Champ",
    terrain_mountains: "Montagne", terrain_desert: "Désert", terrain_sea: "Mer", terrain_gold: "Rivière d’or",
    terrain_fog: "Inexploré",
    robber: "Le voleur", pirate: "Le pirate",
    harbour_generic: "Port : 3 identiques contre 1", harbour_special: "Port : 2 {resource} contre 1",
    island_bonus: "Bonus d’île : +{n} PV",

    spot_build_settlement: "Construire une colonie ici", spot_build_city: "Transformer en ville",
    spot_build_road: "Construire une route ici", spot_build_ship: "Construire un bateau ici",
    spot_move_robber: "Déplacer le voleur sur {place}", spot_move_pirate: "Déplacer le pirate sur {place}",
    spot_move_token: "Déplacer ce jeton ({place})", spot_ship_source: "Déplacer ce bateau",
    spot_ship_selected: "Bateau choisi (touchez-le encore pour annuler)", spot_move_ship: "Déplacer le bateau ici",

    you: "vous", bot: "robot", bot_name: "Robot {n}", nobody: "personne", someone: "quelqu’un",

    prompt_sending: "Envoi…",
    prompt_setup_settlement_first: "Placez votre première colonie sur une intersection en surbrillance.",
    prompt_setup_settlement_second: "Placez votre deuxième colonie sur une intersection en surbrillance.",
    prompt_setup_road: "Placez une route à côté de votre nouvelle colonie.",
    prompt_setup_ship: "Placez un bateau à côté de votre nouvelle colonie.",
    prompt_setup_road_or_ship: "Placez une route ou un bateau à côté de votre nouvelle colonie.",
    prompt_roll: "Lancez les dés.",
    prompt_roll_or_card: "Lancez les dés, ou jouez d’abord une carte développement.",
    prompt_main: "Construisez, échangez, jouez une carte — ou finissez votre tour.",
    prompt_discard: "Défaussez {n} cartes.", prompt_discard_one: "Défaussez 1 carte.",
    prompt_robber: "Déplacez le voleur : touchez un hexagone en surbrillance.",
    prompt_pirate: "Déplacez le pirate : touchez un hexagone de mer en surbrillance.",
    prompt_robber_or_pirate: "Déplacez le voleur ou le pirate : touchez un hexagone en surbrillance.",
    prompt_road_building: "Placez {n} routes ou bateaux gratuits.", prompt_road_building_one: "Placez 1 route ou bateau gratuit.",
    prompt_gold: "Choisissez {n} ressources de la rivière d’or.", prompt_gold_one: "Choisissez 1 ressource de la rivière d’or.",
    prompt_place_token: "Choisissez un jeton numéroté à déplacer vers la nouvelle île.",
    prompt_trade_answer: "{who} vous propose un échange : acceptez, contre-proposez ou refusez.",
    prompt_trade_wait: "En attente de la réponse de {who} à votre offre.",
    prompt_trade_decide: "Tout le monde a répondu : confirmez un échange ou annulez l’offre.",
    prompt_game_over: "Partie terminée : {who} gagne !",
    status_paused: "La partie est en pause.", status_cancelled: "La partie a été annulée.",

    wait_setup_settlement: "{who} place une colonie.",
    wait_setup_road: "{who} place une route.",
    wait_roll: "En attente du lancer de dés de {who}.",
    wait_main: "{who} joue.",
    wait_discard: "En attente de la défausse de {who}.",
    wait_robber: "{who} déplace le voleur.",
    wait_road_building: "{who} construit des routes gratuites.",
    wait_gold: "En attente du choix de {who} dans la rivière d’or.",
    wait_place_token: "{who} déplace un jeton numéroté.",
    wait_trade: "En attente de la réponse de {who} à l’offre d’échange.",
    wait_game_over: "Partie terminée.",

    roll: "Lancer les dés", end_turn: "Finir le tour", buy_development: "Acheter une carte développement",
    trade_bank: "Échanger avec la banque", offer_trade: "Proposer un échange", play_card: "Jouer {card}",
    discard_open: "Défausser {n}", gold_open: "Choisir l’or ({n})",
    close: "Fermer", trade: "Échanger", accept: "Accepter", reject: "Refuser", counter: "Contre-proposer",

    spectating: "Vous regardez cette partie.",
    development_cards: "Cartes développement", dev_playable: "jouable", dev_new: "achetée ce tour : jouable au prochain",
    dev_secret: "gardée secrète : compte à la fin",
    pieces_left: "Pièces restantes", roads: "routes", settlements: "colonies", cities: "villes", ships: "bateaux",
    victory_points: "PV", resource_cards: "cartes", development_short: "dév.", knights: "chevaliers", road_length: "route",
    longest_road: "Route la plus longue", largest_army: "Armée la plus puissante", vp_tokens: "+{n} jetons PV",
    vp_tokens_one: "+1 jeton PV",
    owes_discard: "défausse {n}", owes_gold: "or : {n}", to_move: "à jouer",
    no_roll_yet: "Pas encore lancé ce tour", last_roll: "Dernier lancer : {a} + {b} = {sum}", deck: "Pioche",

    your_offer: "Votre offre", you_give: "Vous donnez", you_get: "Vous recevez", they_give: "{who} donne",
    they_get: "{who} reçoit",
    offer_from: "Offre de {who}", reply_pending: "en attente…", reply_accept: "accepte", reply_reject: "refuse",
    reply_counter: "contre-propose :", counter_terms: "vous donnez {give}, vous recevez {get}",
    confirm_with: "Échanger avec {who}", cancel_offer: "Annuler l’offre",
    cannot_accept: "Vous n’avez pas les cartes demandées.",
    you_replied_accept: "Vous avez accepté. En attente de la confirmation.",
    you_replied_reject: "Vous avez refusé cette offre.", you_replied_counter: "Vous avez fait une contre-proposition.",
    offer_title: "Proposer un échange", counter_title: "Contre-proposition à {who}", offer_to: "Proposer à",
    offer_summary: "Vous donnez {give} et recevez {get}.",
    offer_overlap: "Une ressource ne peut pas être à la fois donnée et demandée.",
    send_offer: "Envoyer l’offre", send_counter: "Envoyer la contre-proposition",

    discard_title: "Défausser {n} cartes", discard_title_one: "Défausser 1 carte",
    discard_intro: "Vous avez {held} cartes : choisissez-en {n} à rendre à la banque.",
    discard_confirm: "Défausser", gold_title: "Rivière d’or : choisissez {n} ressources",
    gold_title_one: "Rivière d’or : choisissez 1 ressource",
    gold_intro: "Prenez {n} ressources de votre choix à la banque.", gold_confirm: "Les prendre",
    chosen_of: "{n} sur {owed} choisies", of_held: "sur {n}", in_bank: "banque : {n}",
    less: "Retirer : {resource}", more: "Ajouter : {resource}",
    victim_title: "Voler une carte à qui ?", victim_title_pirate: "Le pirate vole qui ?",
    cards_held: "{n} cartes", cards_held_one: "{n} carte",
    plenty_title: "Invention", plenty_intro: "Prenez {n} ressources de votre choix à la banque.",
    monopoly_title: "Monopole", monopoly_intro: "Nommez une ressource : chaque autre joueur vous donne toutes les siennes.",
    bank_title: "Échanger avec la banque", your_rates: "Vos taux", bank_pick: "Choisissez ce que vous donnez et ce que vous recevez.",
    bank_summary: "Donner {n} {give} contre 1 {get}.",

    winner: "{who} gagne !", player: "Joueur", vp_cards: "Cartes PV", awards: "Distinctions",
    histogram: "Les dés de cette partie", histogram_legend: "Barres : nombre de sorties. Pointillés : la moyenne attendue avec des dés équilibrés.",
    histogram_bar: "{n} : sorti {count} fois (attendu {expected})",
    seed_revealed: "Graine : {seed} (engagement publié : {commitment}). Rejouez la partie avec elle pour vérifier chaque lancer.",

    chat_hidden: "(message masqué par un modérateur)",

    nothing: "rien",
    ev_rolled: "{who} a fait {sum} ({a} + {b})",
    ev_produced: "{who} reçoit {cards}", ev_produced_none: "Personne ne produit rien.",
    ev_starting_resources: "{who} reçoit ses ressources de départ : {cards}",
    ev_must_discard: "{who} doit défausser {n} cartes", ev_must_discard_one: "{who} doit défausser 1 carte",
    ev_discarded: "{who} a défaussé {cards}",
    ev_moved_robber: "{who} a déplacé le voleur sur {place}", ev_moved_pirate: "{who} a déplacé le pirate",
    ev_stole: "{who} a volé une carte à {victim}",
    ev_stolen_card_thief: "Vous avez volé 1 {resource} à {victim}",
    ev_stolen_card_victim: "{who} vous a volé 1 {resource}",
    ev_built_settlement: "{who} a construit une colonie", ev_built_city: "{who} a construit une ville",
    ev_built_road: "{who} a construit une route", ev_built_ship: "{who} a construit un bateau",
    ev_moved_ship: "{who} a déplacé un bateau",
    ev_longest_road: "{who} prend la Route la plus longue ({n})",
    ev_longest_road_none: "Personne ne détient plus la Route la plus longue",
    ev_largest_army: "{who} prend l’Armée la plus puissante ({n} chevaliers)",
    ev_largest_army_none: "Personne ne détient plus l’Armée la plus puissante",
    ev_bought_development: "{who} a acheté une carte développement",
    ev_drew_development: "Vous avez tiré : {card}",
    ev_played_knight: "{who} a joué un Chevalier", ev_played_road_building: "{who} a joué Construction de routes",
    ev_played_year_of_plenty: "{who} a joué Invention : {cards}",
    ev_played_monopoly: "{who} a joué Monopole sur {resource} et a pris {n} cartes",
    ev_traded_bank: "{who} a échangé {n} {give} contre 1 {get} avec la banque",
    ev_trade_offered: "{who} propose {give} contre {get} (à {to})",
    ev_trade_accept: "{who} accepte l’offre", ev_trade_reject: "{who} refuse l’offre",
    ev_trade_counter: "{who} contre-propose : {give} contre {get}",
    ev_trade_cancelled: "{who} a retiré son offre",
    ev_traded: "{who} a échangé {give} avec {partner} contre {get}",
    ev_turn: "Au tour de {who}",
    ev_game_won: "{who} gagne la partie avec {n} points !",
    ev_gold_owed: "{who} peut prendre {n} ressources de la rivière d’or",
    ev_chose_gold: "{who} a pris {cards} de la rivière d’or",
    ev_revealed: "{who} a découvert : {terrain}", ev_revealed_token: "{who} a découvert : {terrain} ({n})",
    ev_token_drawn: "{who} a tiré le numéro {n}", ev_moved_token: "{who} a déplacé le numéro {n}",
    ev_island_bonus: "{who} s’installe sur une nouvelle île : +{n} PV",
    ev_trade_line: "{who} ouvre une route commerciale", ev_trade_line_lost: "{who} perd une route commerciale",
  },
};

function pageLanguage() {
  const lang = (document.documentElement.lang || "en").slice(0, 2).toLowerCase();
  return lang in STRINGS ? lang : "en";
}

export const LANGUAGE = pageLanguage();

export function t(key, params = {}) {
  const table = STRINGS[LANGUAGE];
  let template = null;
  if (typeof params.n === "number") {
    const single = LANGUAGE === "fr" ? params.n <= 1 : params.n === 1;
    if (single) template = table[`${key}_one`] ?? STRINGS.en[`${key}_one`] ?? null;
  }
  template = template ?? table[key] ?? STRINGS.en[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (match, name) => (name in params ? String(params[name]) : match));
}
