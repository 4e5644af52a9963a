// The Bmob console: a client of the public REST API (/1/…, with the app's id and master key) and of the socket.io
// door (the realtime monitor). Every piece of data reaches the page through textContent or attributes set one by
// one, never as HTML; keys live in sessionStorage only.
'use strict';
(function () {
    const I18N = window.BMOB_CONSOLE_I18N;
    const SESSION_KEY = 'bmob-console';
    const LANGUAGE_KEY = 'bmob-console-language';
    const PAGE_SIZE = 50;
    const SYSTEM_FIELDS = ['objectId', 'createdAt', 'updatedAt', 'ACL'];
    const FIELD_TYPES = ['String', 'Number', 'Boolean', 'Date', 'File', 'GeoPoint', 'Array', 'Object', 'Pointer', 'Relation'];
    const CLASS_OPERATIONS = ['get', 'find', 'create', 'update', 'delete', 'addField'];

    const state = {
        language: 'en',
        apps: [],
        appId: null,
        view: 'overview',
        className: null,
        tab: 'objects',
        schemas: [],
        conditions: [],
        skip: 0,
        monitor: null,
        monitorEvents: [],
        monitorStatus: null,
        monitorView: null
    };

    // ---- Strings -------------------------------------------------------------------------------------------

    function t(key, ...args) {
        const table = I18N[state.language] || I18N.en;
        let text = table[key] !== undefined ? table[key] : (I18N.en[key] !== undefined ? I18N.en[key] : key);
        args.forEach((argument, index) => { text = text.split('{' + index + '}').join(String(argument)); });
        return text;
    }

    // ---- DOM -------------------------------------------------------------------------------------------------

    // Builds an element; strings become text nodes, so data can never turn into markup.
    function h(tag, attributes, ...children) {
        const element = document.createElement(tag);
        for (const [name, value] of Object.entries(attributes || {})) {
            if (value === null || value === undefined || value === false) continue;
            if (name === 'class') element.className = value;
            else if (name === 'text') element.textContent = value;
            else if (name === 'value') element.value = value;
            else if (name === 'checked') element.checked = Boolean(value);
            else if (name.startsWith('on') && typeof value === 'function') element.addEventListener(name.slice(2), value);
            else element.setAttribute(name, value === true ? '' : String(value));
        }
        for (const child of children.flat(Infinity)) {
            if (child === null || child === undefined || child === false) continue;
            element.append(child instanceof Node ? child : document.createTextNode(String(child)));
        }
        return element;
    }

    function truncate(text, length) {
        return text.length > length ? text.slice(0, length - 1) + '…' : text;
    }

    // A URL from data that may be followed or shown: http(s) only, and for images this origin only (the CSP's img-src).
    function safeURL(text, sameOriginOnly) {
        try {
            const url = new URL(String(text), location.href);
            if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
            if (sameOriginOnly && url.origin !== location.origin) return null;
            return url.href;
        } catch (error) {
            return null;
        }
    }

    function notify(message, bad) {
        const box = document.getElementById('status');
        if (!box) return;
        const line = h('div', { class: bad ? 'bad' : '', role: bad ? 'alert' : 'status' }, message);
        box.append(line);
        setTimeout(() => line.remove(), bad ? 8000 : 3500);
    }

    function failure(error) {
        notify(t('error', error.code !== undefined ? error.code : (error.status || ''), error.message), true);
    }

    // ---- Session -------------------------------------------------------------------------------------------

    function saveSession() {
        sessionStorage.setItem(SESSION_KEY, JSON.stringify({ apps: state.apps, appId: state.appId }));
    }

    function loadSession() {
        try {
            const saved = JSON.parse(sessionStorage.getItem(SESSION_KEY) || 'null');
            if (saved && Array.isArray(saved.apps)) {
                state.apps = saved.apps.filter(app => app && typeof app.applicationId === 'string' && typeof app.masterKey === 'string');
                state.appId = saved.appId;
            }
        } catch (error) {
            sessionStorage.removeItem(SESSION_KEY);
        }
        const language = localStorage.getItem(LANGUAGE_KEY);
        if (language === 'zh' || language === 'en') state.language = language;
        else if ((navigator.language || '').toLowerCase().startsWith('zh')) state.language = 'zh';
    }

    function currentApp() {
        return state.apps.find(app => app.applicationId === state.appId) || null;
    }

    function signOut() {
        stopMonitor();
        sessionStorage.removeItem(SESSION_KEY);
        state.apps = [];
        state.appId = null;
        resetAppState();
        render();
    }

    function resetAppState() {
        stopMonitor();
        state.view = 'overview';
        state.className = null;
        state.schemas = [];
        state.conditions = [];
        state.skip = 0;
        state.monitorEvents = [];
    }

    // ---- REST ----------------------------------------------------------------------------------------------

    async function api(method, path, body, app) {
        const keys = app || currentApp();
        const headers = { 'X-Bmob-Application-Id': keys.applicationId, 'X-Bmob-Master-Key': keys.masterKey };
        const init = { method: method, headers: headers, cache: 'no-store', credentials: 'omit' };
        if (body !== undefined) {
            headers['Content-Type'] = 'application/json';
            init.body = JSON.stringify(body);
        }
        return answer(await fetch(path, init));
    }

    async function answer(response) {
        const text = await response.text();
        let json = null;
        try {
            json = text ? JSON.parse(text) : null;
        } catch (error) {
            json = null;
        }
        if (!response.ok) {
            const error = new Error(json && typeof json.error === 'string' ? json.error : (response.statusText || 'HTTP ' + response.status));
            error.code = json && json.code !== undefined ? json.code : response.status;
            error.status = response.status;
            throw error;
        }
        return json;
    }

    function query(parameters) {
        return Object.entries(parameters)
            .filter(([, value]) => value !== undefined && value !== null && value !== '')
            .map(([name, value]) => encodeURIComponent(name) + '=' + encodeURIComponent(typeof value === 'string' ? value : JSON.stringify(value)))
            .join('&');
    }

    function classPath(className) {
        if (className === '_User') return '/1/users';
        if (className === '_Role') return '/1/roles';
        return '/1/classes/' + encodeURIComponent(className);
    }

    function objectPath(className, objectId) {
        return classPath(className) + '/' + encodeURIComponent(objectId);
    }

    async function loadSchemas() {
        const answer = await api('GET', '/1/schemas');
        state.schemas = (answer && Array.isArray(answer.results) ? answer.results : [])
            .sort((a, b) => String(a.className).localeCompare(String(b.className)));
        return state.schemas;
    }

    function schemaOf(className) {
        return state.schemas.find(schema => schema.className === className) || { className: className, fields: {}, indexes: [] };
    }

    // ---- Rendering -------------------------------------------------------------------------------------------

    function render() {
        document.documentElement.lang = state.language === 'zh' ? 'zh-CN' : 'en';
        document.title = t('title');
        const root = document.getElementById('app');
        root.replaceChildren(currentApp() ? layout() : signInView());
        if (currentApp()) showView();
    }

    function languageSwitch() {
        return h('select', {
            id: 'language', 'aria-label': t('language'),
            onchange: event => {
                state.language = event.target.value;
                localStorage.setItem(LANGUAGE_KEY, state.language);
                render();
            }
        }, h('option', { value: 'en', selected: state.language === 'en' }, 'English'),
        h('option', { value: 'zh', selected: state.language === 'zh' }, '中文'));
    }

    function signInView() {
        let mode = 'key';
        const error = h('p', { class: 'error', id: 'signin-error', role: 'alert' });
        const applicationId = h('input', { id: 'signin-app-id', autocomplete: 'off', spellcheck: 'false' });
        const masterKey = h('input', { id: 'signin-master-key', type: 'password', autocomplete: 'off', spellcheck: 'false' });
        const password = h('input', { id: 'signin-password', type: 'password', autocomplete: 'current-password' });
        const keyFields = h('div', {}, h('label', { for: 'signin-app-id' }, t('applicationId')), applicationId,
            h('label', { for: 'signin-master-key' }, t('masterKey')), masterKey);
        const passwordFields = h('div', { hidden: true }, h('label', { for: 'signin-password' }, t('adminPassword')), password);
        const keyTab = h('button', { type: 'button', class: 'active', id: 'signin-mode-key' }, t('signInWithKey'));
        const passwordTab = h('button', { type: 'button', id: 'signin-mode-password' }, t('signInWithPassword'));
        function choose(next) {
            mode = next;
            keyTab.classList.toggle('active', mode === 'key');
            passwordTab.classList.toggle('active', mode === 'password');
            keyFields.hidden = mode !== 'key';
            passwordFields.hidden = mode !== 'password';
        }
        keyTab.addEventListener('click', () => choose('key'));
        passwordTab.addEventListener('click', () => choose('password'));
        const submit = h('button', { type: 'submit', class: 'primary', id: 'signin-submit' }, t('signIn'));
        const form = h('form', {
            id: 'signin-form',
            onsubmit: async event => {
                event.preventDefault();
                error.textContent = '';
                submit.disabled = true;
                try {
                    if (mode === 'key') {
                        const app = { name: '', applicationId: applicationId.value.trim(), masterKey: masterKey.value.trim() };
                        if (!app.applicationId || !app.masterKey) throw new Error(t('applicationId') + ' / ' + t('masterKey'));
                        await api('GET', '/1/schemas', undefined, app);
                        state.apps = [app];
                        state.appId = app.applicationId;
                    } else {
                        const answer = await fetch('/1/console/apps', {
                            method: 'POST', cache: 'no-store', credentials: 'omit',
                            headers: { 'Content-Type': 'application/json' },
                            body: JSON.stringify({ password: password.value })
                        }).then(answerOf);
                        const apps = (answer && Array.isArray(answer.results) ? answer.results : []);
                        if (apps.length === 0) throw new Error(t('noApps'));
                        state.apps = apps.map(app => ({
                            name: String(app.name || ''), applicationId: String(app.applicationId),
                            masterKey: String(app.masterKey), restKey: String(app.restKey || '')
                        }));
                        state.appId = state.apps[0].applicationId;
                    }
                    resetAppState();
                    state.view = mode === 'password' ? 'apps' : 'overview';
                    saveSession();
                    render();
                } catch (caught) {
                    error.textContent = caught.code !== undefined ? t('error', caught.code, caught.message) : caught.message;
                } finally {
                    submit.disabled = false;
                }
            }
        }, h('div', { class: 'tabs' }, keyTab, passwordTab), keyFields, passwordFields, h('p', {}, submit), error,
        h('p', { class: 'muted' }, t('signInHint')));
        return h('section', { class: 'signin', id: 'signin' }, h('div', { class: 'lang' }, languageSwitch()),
            h('h1', {}, t('signInTitle')), form);
    }

    function answerOf(response) {
        return answer(response);
    }

    const VIEWS = [
        ['overview', 'viewOverview'], ['apps', 'viewApps'], ['data', 'viewData'], ['users', 'viewUsers'],
        ['roles', 'viewRoles'], ['files', 'viewFiles'], ['monitor', 'viewMonitor']
    ];

    function layout() {
        const app = currentApp();
        const appChoice = state.apps.length > 1
            ? h('select', {
                id: 'app-select', 'aria-label': t('app'),
                onchange: event => { state.appId = event.target.value; resetAppState(); saveSession(); render(); }
            }, state.apps.map(each => h('option', { value: each.applicationId, selected: each.applicationId === state.appId },
                each.name ? each.name + ' (' + each.applicationId + ')' : each.applicationId)))
            : h('span', { class: 'mono', id: 'app-name' }, app.name ? app.name + ' (' + app.applicationId + ')' : app.applicationId);
        const header = h('header', { class: 'top' }, h('strong', {}, t('title')), appChoice, h('span', { class: 'spacer' }),
            languageSwitch(), h('button', { id: 'sign-out', type: 'button', onclick: signOut }, t('signOut')));
        const nav = h('nav', { class: 'side' }, VIEWS.map(([view, label]) => h('button', {
            type: 'button', 'data-view': view, class: state.view === view ? 'active' : '',
            onclick: () => {
                if (view !== 'monitor') stopMonitor();
                state.view = view;
                if (view === 'users') openClass('_User');
                else if (view === 'roles') openClass('_Role');
                else if (view === 'files') openClass('_File');
                render();
            }
        }, t(label))));
        return h('div', {}, header, h('div', { class: 'shell' }, nav, h('main', { id: 'main' })), h('div', { id: 'status' }));
    }

    function openClass(className) {
        if (state.className !== className) {
            state.className = className;
            state.conditions = [];
            state.skip = 0;
            state.tab = 'objects';
        }
    }

    // Views load asynchronously; only the latest request for one may fill the page.
    let viewGeneration = 0;

    async function showView() {
        const main = document.getElementById('main');
        const generation = ++viewGeneration;
        if (!main.firstChild) main.replaceChildren(h('p', { class: 'muted' }, t('loading')));
        try {
            let content;
            switch (state.view) {
            case 'apps': content = appsView(); break;
            case 'data': content = await dataView(); break;
            case 'users': content = await managedView('_User', t('viewUsers')); break;
            case 'roles': content = await managedView('_Role', t('viewRoles')); break;
            case 'files': content = await managedView('_File', t('viewFiles')); break;
            case 'monitor': content = await monitorView(); break;
            default: content = await overviewView();
            }
            if (generation === viewGeneration) main.replaceChildren(content);
        } catch (error) {
            if (generation === viewGeneration) main.replaceChildren(h('p', { class: 'error', role: 'alert' }, t('error', error.code !== undefined ? error.code : '', error.message)));
        }
    }

    // ---- Overview --------------------------------------------------------------------------------------------

    async function overviewView() {
        const [info, schemas] = await Promise.all([api('GET', '/1/serverInfo'), loadSchemas()]);
        const limits = info && info.limits && typeof info.limits === 'object' ? info.limits : {};
        const serverCard = h('section', { class: 'card', id: 'server-info' }, h('h2', {}, t('serverInfo')),
            h('dl', { class: 'info' },
                h('dt', {}, t('version')), h('dd', { class: 'mono' }, String(info && info.version || '')),
                h('dt', {}, t('capabilities')), h('dd', {}, Array.isArray(info && info.capabilities) ? info.capabilities.join(', ') : ''),
                Object.entries(limits).map(([name, value]) => [h('dt', {}, t('limits') + ' · ' + name), h('dd', { class: 'num' }, String(value))]),
                info && info.history !== undefined ? [h('dt', {}, t('retention')), h('dd', { class: 'mono' }, JSON.stringify(info.history))] : null));
        const counts = h('tbody');
        const countCard = h('section', { class: 'card', id: 'class-counts' }, h('h2', {}, t('counts')),
            h('table', {}, h('thead', {}, h('tr', {}, h('th', {}, t('className')), h('th', {}, t('objects', '')))), counts));
        for (const schema of schemas.slice(0, 100)) {
            const cell = h('td', { class: 'num' }, '…');
            counts.append(h('tr', {}, h('td', {}, h('button', {
                type: 'button', class: 'link',
                onclick: () => { openClass(schema.className); state.view = 'data'; render(); }
            }, schema.className)), cell));
            api('GET', classPath(schema.className) + '?' + query({ limit: 0, count: 1 }))
                .then(result => { cell.textContent = String(result && result.count !== undefined ? result.count : '?'); })
                .catch(() => { cell.textContent = '—'; });
        }
        return h('div', {}, h('h1', {}, t('viewOverview')), serverCard, countCard, metricsCard());
    }

    function metricsCard() {
        const token = h('input', { type: 'password', id: 'metrics-token', autocomplete: 'off', placeholder: t('metricsToken'), size: 36 });
        const filter = h('input', { id: 'metrics-filter', placeholder: t('metricsFilter'), value: 'bmob_' });
        const output = h('pre', { id: 'metrics-output', class: 'muted' });
        let lines = [];
        function show() {
            const needle = filter.value.trim();
            output.textContent = lines.filter(line => !line.startsWith('#') && line.includes(needle)).slice(0, 200).join('\n');
        }
        filter.addEventListener('input', show);
        const load = h('button', {
            type: 'button',
            onclick: async () => {
                try {
                    const response = await fetch('/metrics', {
                        cache: 'no-store', credentials: 'omit', headers: { Authorization: 'Bearer ' + token.value.trim() }
                    });
                    if (!response.ok) await answer(response);
                    lines = (await response.text()).split('\n');
                    show();
                } catch (error) {
                    failure(error);
                }
            }
        }, t('metricsLoad'));
        return h('section', { class: 'card' }, h('h2', {}, t('metrics')), h('div', { class: 'row' }, token, load, filter), output);
    }

    // ---- Apps ------------------------------------------------------------------------------------------------

    function secret(value, id) {
        const text = h('span', { class: 'mono', id: id }, '••••••••••••');
        let shown = false;
        const button = h('button', {
            type: 'button', class: 'link',
            onclick: () => {
                shown = !shown;
                text.textContent = shown ? value : '••••••••••••';
                button.textContent = shown ? t('hide') : t('reveal');
            }
        }, t('reveal'));
        return h('span', {}, text, ' ', button);
    }

    function appsView() {
        return h('div', {}, h('h1', {}, t('viewApps')), h('div', { class: 'table-wrap' }, h('table', { id: 'apps-table' },
            h('thead', {}, h('tr', {}, h('th', {}, t('name')), h('th', {}, t('applicationId')), h('th', {}, t('restKey')),
                h('th', {}, t('masterKey')), h('th', {}))),
            h('tbody', {}, state.apps.map(app => h('tr', { 'data-app': app.applicationId },
                h('td', {}, app.name || '—'), h('td', { class: 'mono' }, app.applicationId),
                h('td', {}, app.restKey ? secret(app.restKey) : '—'), h('td', {}, secret(app.masterKey)),
                h('td', {}, h('button', {
                    type: 'button', 'data-open-app': app.applicationId,
                    onclick: () => { state.appId = app.applicationId; resetAppState(); state.view = 'data'; saveSession(); render(); }
                }, t('viewData')))))))));
    }

    // ---- Data ------------------------------------------------------------------------------------------------

    async function dataView() {
        await loadSchemas();
        const list = h('div', { class: 'classes', id: 'class-list' }, h('h3', {}, t('classes')),
            state.schemas.length === 0 ? h('p', { class: 'muted' }, t('noClasses')) : null,
            state.schemas.map(schema => h('button', {
                type: 'button', class: 'class' + (schema.className === state.className ? ' active' : ''),
                'data-class': schema.className,
                onclick: () => { openClass(schema.className); showView(); }
            }, schema.className)), newClassForm());
        const panel = state.className ? await classPanel(state.className) : h('p', { class: 'muted' }, t('pickClass'));
        return h('div', { class: 'data' }, list, h('section', { id: 'class-panel' }, panel));
    }

    function newClassForm() {
        const name = h('input', { id: 'new-class-name', placeholder: t('className'), autocomplete: 'off', spellcheck: 'false' });
        return h('form', {
            id: 'new-class-form',
            onsubmit: async event => {
                event.preventDefault();
                const className = name.value.trim();
                if (!className) return;
                try {
                    await api('POST', '/1/schemas/' + encodeURIComponent(className), {});
                    notify(t('classCreated', className));
                    openClass(className);
                    showView();
                } catch (error) {
                    failure(error);
                }
            }
        }, h('strong', {}, t('newClass')), name, h('button', { type: 'submit', id: 'new-class-submit' }, t('createClass')));
    }

    async function managedView(className, title) {
        await loadSchemas();
        openClass(className);
        return h('div', {}, h('h1', {}, title), await classPanel(className));
    }

    async function classPanel(className) {
        const tabs = h('div', { class: 'tabs' }, [['objects', 'tabObjects'], ['schema', 'tabSchema'], ['deleted', 'tabDeleted']]
            .filter(([tab]) => tab !== 'deleted' || !className.startsWith('_'))
            .map(([tab, label]) => h('button', {
                type: 'button', 'data-tab': tab, class: state.tab === tab ? 'active' : '',
                onclick: () => { state.tab = tab; showView(); }
            }, t(label))));
        let body;
        if (state.tab === 'schema') body = schemaPanel(className);
        else if (state.tab === 'deleted') body = await deletedPanel(className);
        else body = await objectsPanel(className);
        return h('div', { 'data-class-panel': className }, h('h2', { class: 'mono' }, className), tabs, body);
    }

    // ---- Objects ---------------------------------------------------------------------------------------------

    function fieldsOf(className) {
        const fields = Object.assign({}, schemaOf(className).fields || {});
        for (const name of SYSTEM_FIELDS) delete fields[name];
        return fields;
    }

    async function objectsPanel(className) {
        const fields = fieldsOf(className);
        let where;
        const whereText = h('code', { id: 'where-preview' });
        try {
            where = buildWhere(state.conditions, fields);
            whereText.textContent = 'where = ' + JSON.stringify(where);
        } catch (error) {
            where = {};
            whereText.textContent = error.message;
        }
        const result = await api('GET', classPath(className) + '?' + query({
            where: Object.keys(where).length ? where : undefined, limit: PAGE_SIZE, skip: state.skip, order: '-createdAt', count: 1
        }));
        const rows = result && Array.isArray(result.results) ? result.results : [];
        const total = result && typeof result.count === 'number' ? result.count : rows.length;
        // Columns: the schema's fields, then any others the rows hold.
        const columns = Object.keys(fields);
        for (const row of rows) {
            for (const name of Object.keys(row)) {
                if (!SYSTEM_FIELDS.includes(name) && !columns.includes(name)) columns.push(name);
            }
        }
        const head = h('tr', {}, h('th', {}, 'objectId'), columns.map(name => h('th', {}, name,
            h('span', { class: 'type' }, fields[name] ? fields[name].type + (fields[name].targetClass ? '<' + fields[name].targetClass + '>' : '') : ''))),
        h('th', {}, 'ACL'), h('th', {}, 'createdAt'), h('th', {}, 'updatedAt'), h('th', {}, t('actions')));
        const body = h('tbody', {}, rows.map(row => h('tr', { 'data-object-id': String(row.objectId) },
            h('td', { class: 'mono' }, String(row.objectId)),
            columns.map(name => h('td', { 'data-field': name }, cell(row[name], className, name))),
            h('td', {}, aclBadge(row.ACL)), h('td', {}, String(row.createdAt || '')), h('td', {}, String(row.updatedAt || '')),
            h('td', {}, rowActions(className, row)))));
        const from = rows.length ? state.skip + 1 : 0;
        const pager = h('div', { class: 'row pager' },
            h('button', { type: 'button', disabled: state.skip === 0, onclick: () => { state.skip = Math.max(0, state.skip - PAGE_SIZE); showView(); } }, t('previous')),
            h('span', { class: 'muted', id: 'page-info' }, t('page', from, state.skip + rows.length, total)),
            h('button', { type: 'button', disabled: state.skip + rows.length >= total, onclick: () => { state.skip += PAGE_SIZE; showView(); } }, t('next')));
        const toolbar = h('div', { class: 'row' },
            className === '_File' ? null : h('button', { type: 'button', class: 'primary', id: 'add-object', onclick: () => editObject(className, null) },
                className === '_Role' ? t('newRole') : t('addObject')),
            h('button', { type: 'button', id: 'refresh-objects', onclick: () => showView() }, t('refresh')),
            h('span', { class: 'muted', id: 'object-count' }, t('objects', total)));
        return h('div', {}, filtersPanel(className, fields, whereText), toolbar,
            h('div', { class: 'table-wrap', style: null }, h('table', { id: 'objects-table' }, h('thead', {}, head), body)), pager);
    }

    function rowActions(className, row) {
        const id = String(row.objectId);
        const actions = [];
        if (className !== '_File') {
            actions.push(h('button', { type: 'button', class: 'link', 'data-action': 'edit', onclick: () => editObject(className, row) }, t('edit')));
            actions.push(h('button', { type: 'button', class: 'link', 'data-action': 'acl', onclick: () => editACL(className, row) }, t('acl')));
        }
        if (!className.startsWith('_')) {
            actions.push(h('button', { type: 'button', class: 'link', 'data-action': 'history', onclick: () => showHistory(className, id) }, t('history')));
        }
        if (className === '_User') {
            actions.push(h('button', { type: 'button', class: 'link', 'data-action': 'sessions', onclick: () => showSessions(id) }, t('sessions')));
        }
        actions.push(h('button', {
            type: 'button', class: 'link danger', 'data-action': 'delete',
            onclick: async () => {
                if (!confirm(t('confirmDelete', id))) return;
                try {
                    if (className === '_File') {
                        await api('DELETE', '/2/files/' + encodeURIComponent(String(row.cdn || 'local')) + '/' +
                            String(row.key || '').split('/').map(encodeURIComponent).join('/'));
                    } else {
                        await api('DELETE', objectPath(className, id));
                    }
                    notify(t('objectDeleted', id));
                    showView();
                } catch (error) {
                    failure(error);
                }
            }
        }, t('delete')));
        return actions;
    }

    // A value shown by its type: dates, pointers to follow, files with previews, geo points, the rest as JSON.
    function cell(value, className, name) {
        if (value === undefined) return h('span', { class: 'null' }, '');
        if (value === null) return h('span', { class: 'null' }, 'null');
        if (typeof value === 'boolean') return h('span', { class: value ? 'yes' : 'no' }, value ? '✓ ' + t('yes') : '✗ ' + t('no'));
        if (typeof value === 'number') return h('span', { class: 'num' }, String(value));
        if (typeof value === 'string') {
            if (className === '_File' && name === 'url') return fileLink({ url: value, filename: value.split('/').pop() });
            return h('span', { title: truncate(value, 2000) }, truncate(value, 80));
        }
        if (!Array.isArray(value) && typeof value === 'object') {
            switch (value.__type) {
            case 'Date':
                return h('time', { datetime: String(value.iso), title: String(value.iso), 'data-type': 'Date' }, String(value.iso));
            case 'Pointer':
                return h('a', {
                    href: '#', class: 'pointer', 'data-type': 'Pointer',
                    onclick: event => { event.preventDefault(); followPointer(value); }
                }, '→ ' + String(value.className) + ' ' + String(value.objectId));
            case 'File':
                return fileLink(value);
            case 'GeoPoint':
                return h('span', { class: 'geo', 'data-type': 'GeoPoint' }, '@ ' + Number(value.latitude).toFixed(5) + ', ' + Number(value.longitude).toFixed(5));
            case 'Relation':
                return h('span', { class: 'muted' }, 'Relation<' + String(value.className) + '>');
            default:
                break;
            }
        }
        const text = JSON.stringify(value);
        return h('code', { title: truncate(text, 2000) }, truncate(text, 80));
    }

    function fileLink(file) {
        const url = safeURL(file.url, false);
        const name = String(file.filename || file.url || '');
        const link = url ? h('a', { href: url, target: '_blank', rel: 'noopener noreferrer' }, truncate(name, 40)) : h('span', {}, truncate(name, 40));
        const image = /\.(png|jpe?g|gif|webp|svg|bmp|ico)$/i.test(String(file.url || name)) ? safeURL(file.url, true) : null;
        return h('span', { 'data-type': 'File' }, image ? h('img', { class: 'thumb', src: image, alt: name, loading: 'lazy' }) : null, ' ', link);
    }

    function followPointer(pointer) {
        openClass(String(pointer.className));
        state.conditions = [{ field: 'objectId', op: 'eq', value: String(pointer.objectId) }];
        state.view = pointer.className === '_User' ? 'users' : pointer.className === '_Role' ? 'roles' : 'data';
        render();
    }

    function aclBadge(acl) {
        if (!acl || typeof acl !== 'object' || Object.keys(acl).length === 0) return h('span', { class: 'acl-badge muted' }, t('aclNone'));
        const parts = Object.entries(acl).map(([who, rights]) =>
            (who === '*' ? '*' : truncate(who, 24)) + ':' + (rights && rights.read ? 'r' : '') + (rights && rights.write ? 'w' : ''));
        return h('span', { class: 'acl-badge mono', title: JSON.stringify(acl) }, truncate(parts.join(' '), 60));
    }

    // ---- Filters ---------------------------------------------------------------------------------------------

    const OPERATORS = [['eq', 'opEq'], ['ne', 'opNe'], ['lt', 'opLt'], ['lte', 'opLte'], ['gt', 'opGt'], ['gte', 'opGte'],
        ['regex', 'opRegex'], ['exists', 'opExists']];

    function filtersPanel(className, fields, whereText) {
        const names = ['objectId'].concat(Object.keys(fields).filter(name => fields[name].type !== 'Relation'), ['createdAt', 'updatedAt']);
        const rows = h('div', { class: 'filters', id: 'filters' });
        function draw() {
            rows.replaceChildren(...state.conditions.map((condition, index) => h('div', { class: 'row', 'data-condition': index },
                h('select', { class: 'filter-field', onchange: event => { condition.field = event.target.value; } },
                    names.map(name => h('option', { value: name, selected: condition.field === name }, name))),
                h('select', { class: 'filter-op', onchange: event => { condition.op = event.target.value; } },
                    OPERATORS.map(([op, label]) => h('option', { value: op, selected: condition.op === op }, t(label)))),
                h('input', { class: 'filter-value', value: condition.value, placeholder: t('value'), oninput: event => { condition.value = event.target.value; } }),
                h('button', { type: 'button', class: 'link danger', onclick: () => { state.conditions.splice(index, 1); draw(); } }, '✕'))),
            whereText);
        }
        draw();
        return h('section', { class: 'card' }, h('div', { class: 'row' }, h('strong', {}, t('filters')),
            h('button', { type: 'button', id: 'add-filter', onclick: () => { state.conditions.push({ field: names[0], op: 'eq', value: '' }); draw(); } }, t('addFilter')),
            h('button', { type: 'button', class: 'primary', id: 'apply-filter', onclick: () => { state.skip = 0; showView(); } }, t('applyFilter')),
            h('button', { type: 'button', id: 'clear-filter', onclick: () => { state.conditions = []; state.skip = 0; showView(); } }, t('clearFilter'))), rows);
    }

    // The Bmob `where` the conditions make, values typed by the field's schema.
    function buildWhere(conditions, fields) {
        const where = {};
        for (const condition of conditions) {
            if (!condition.field) continue;
            const schema = fields[condition.field] || (condition.field.endsWith('At') && condition.field !== 'objectId' ? { type: 'Date' } : { type: 'String' });
            let value;
            if (condition.op === 'exists') {
                value = { $exists: condition.value.trim() !== 'false' };
            } else if (condition.op === 'regex') {
                value = { $regex: condition.value };
            } else {
                const typed = typedValue(condition.value, schema);
                value = condition.op === 'eq' ? typed : { ['$' + condition.op]: typed };
            }
            const existing = where[condition.field];
            where[condition.field] = existing && typeof existing === 'object' && !existing.__type && typeof value === 'object' && !value.__type
                ? Object.assign({}, existing, value) : value;
        }
        return where;
    }

    function typedValue(text, schema) {
        const trimmed = text.trim();
        switch (schema.type) {
        case 'Number': {
            const number = Number(trimmed);
            if (trimmed === '' || !Number.isFinite(number)) throw new Error(t('notANumber', text));
            return number;
        }
        case 'Boolean':
            return trimmed === 'true' || trimmed === '1';
        case 'Date': {
            const match = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2})(:\d{2})?)?$/.exec(trimmed);
            if (!match) throw new Error(t('notADate', text));
            return { __type: 'Date', iso: match[1] + ' ' + (match[2] || '00:00') + (match[3] || ':00') };
        }
        case 'Pointer':
            return { __type: 'Pointer', className: schema.targetClass, objectId: trimmed };
        default:
            return text;
        }
    }

    // ---- Dialogs ---------------------------------------------------------------------------------------------

    function dialog(id, title, content, buttons) {
        const existing = document.getElementById(id);
        if (existing) existing.remove();
        const element = h('dialog', { id: id, 'aria-label': title }, h('h2', {}, title), content,
            h('div', { class: 'buttons' }, buttons, h('button', { type: 'button', class: 'dialog-close', onclick: () => element.close() }, t('close'))));
        element.addEventListener('close', () => element.remove());
        document.body.append(element);
        element.showModal();
        return element;
    }

    function editObject(className, row) {
        const fields = {};
        if (row) {
            for (const [name, value] of Object.entries(row)) {
                if (!SYSTEM_FIELDS.includes(name) && !(className === '_User' && name === 'sessionToken')) fields[name] = value;
            }
        }
        const text = h('textarea', { id: 'object-json', rows: 14, spellcheck: 'false', value: JSON.stringify(fields, null, 2) });
        const error = h('p', { class: 'error', role: 'alert' });
        const title = row ? t('editObject', String(row.objectId)) : t('newObject', className);
        const save = h('button', {
            type: 'button', class: 'primary', id: 'object-save',
            onclick: async () => {
                let body;
                try {
                    body = JSON.parse(text.value);
                } catch (caught) {
                    error.textContent = t('invalidJSON', caught.message);
                    return;
                }
                if (!body || typeof body !== 'object' || Array.isArray(body)) {
                    error.textContent = t('mustBeObject');
                    return;
                }
                if (row) {
                    // Fields taken out of the text are deleted from the object.
                    for (const name of Object.keys(fields)) {
                        if (!(name in body)) body[name] = { __op: 'Delete' };
                    }
                }
                try {
                    const result = row
                        ? await api('PUT', objectPath(className, String(row.objectId)), body)
                        : await api('POST', classPath(className), body);
                    element.close();
                    notify(t('objectSaved', row ? String(row.objectId) : String(result && result.objectId)));
                    showView();
                } catch (caught) {
                    error.textContent = t('error', caught.code, caught.message);
                }
            }
        }, t('save'));
        const element = dialog('object-dialog', title, [h('label', { for: 'object-json', class: 'muted' }, t('objectJSON')), text, error], save);
        text.focus();
    }

    function editACL(className, row) {
        const id = String(row.objectId);
        const entries = Object.entries(row.ACL && typeof row.ACL === 'object' ? row.ACL : {})
            .map(([who, rights]) => ({ who: who, read: Boolean(rights && rights.read), write: Boolean(rights && rights.write) }));
        if (!entries.some(entry => entry.who === '*')) entries.unshift({ who: '*', read: entries.length === 0, write: entries.length === 0 });
        const rows = h('tbody');
        const error = h('p', { class: 'error', role: 'alert' });
        function draw() {
            rows.replaceChildren(...entries.map((entry, index) => h('tr', { 'data-acl': entry.who },
                h('td', { class: 'mono' }, entry.who === '*' ? t('aclPublic') : entry.who),
                h('td', {}, h('input', { type: 'checkbox', class: 'acl-read', checked: entry.read, onchange: event => { entry.read = event.target.checked; } })),
                h('td', {}, h('input', { type: 'checkbox', class: 'acl-write', checked: entry.write, onchange: event => { entry.write = event.target.checked; } })),
                h('td', {}, entry.who === '*' ? null : h('button', { type: 'button', class: 'link danger', onclick: () => { entries.splice(index, 1); draw(); } }, '✕')))));
        }
        draw();
        const who = h('input', { id: 'acl-new-who', placeholder: t('aclWho'), autocomplete: 'off', spellcheck: 'false' });
        const add = h('button', {
            type: 'button', id: 'acl-add',
            onclick: () => {
                const name = who.value.trim();
                if (!name || entries.some(entry => entry.who === name)) return;
                entries.push({ who: name, read: true, write: false });
                who.value = '';
                draw();
            }
        }, t('aclAdd'));
        const save = h('button', {
            type: 'button', class: 'primary', id: 'acl-save',
            onclick: async () => {
                const acl = {};
                for (const entry of entries) {
                    if (!entry.read && !entry.write) continue;
                    acl[entry.who] = {};
                    if (entry.read) acl[entry.who].read = true;
                    if (entry.write) acl[entry.who].write = true;
                }
                try {
                    await api('PUT', objectPath(className, id), { ACL: acl });
                    element.close();
                    notify(t('aclSaved', id));
                    showView();
                } catch (caught) {
                    error.textContent = t('error', caught.code, caught.message);
                }
            }
        }, t('save'));
        const element = dialog('acl-dialog', t('aclTitle', id), [
            h('table', {}, h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', {}, t('aclRead')), h('th', {}, t('aclWrite')), h('th', {}, ''))), rows),
            h('div', { class: 'row' }, who, add), error], save);
    }

    function historyTable(entries, action) {
        return h('table', { class: 'history' }, h('thead', {}, h('tr', {}, h('th', {}, t('seq')), h('th', {}, t('operation')),
            h('th', {}, t('when')), h('th', {}, t('by')), h('th', {}, t('changed')), h('th', {}))),
        h('tbody', {}, entries.map(entry => h('tr', { 'data-seq': String(entry.seq), 'data-op': String(entry.op) },
            h('td', { class: 'num' }, String(entry.seq)), h('td', {}, String(entry.op)),
            h('td', {}, entry.at && entry.at.iso ? String(entry.at.iso) : ''),
            h('td', { class: 'mono' }, [entry.user, entry.door].filter(Boolean).map(String).join(' · ')),
            h('td', { class: 'wrap' }, Array.isArray(entry.changed) ? entry.changed.map(String).join(', ') : '',
                h('details', {}, h('summary', {}, t('before') + ' / ' + t('after')),
                    h('pre', {}, t('before') + ': ' + JSON.stringify(entry.before, null, 1)),
                    h('pre', {}, t('after') + ': ' + JSON.stringify(entry.after, null, 1)))),
            h('td', {}, action(entry))))));
    }

    async function showHistory(className, objectId) {
        try {
            const result = await api('GET', '/1/history/' + encodeURIComponent(className) + '/' + encodeURIComponent(objectId) + '?' + query({ limit: 100 }));
            const entries = result && Array.isArray(result.results) ? result.results : [];
            const content = entries.length === 0 ? h('p', { class: 'muted' }, t('historyEmpty')) : historyTable(entries, entry => entry.op === 'create' ? null : h('button', {
                type: 'button', class: 'revert', 'data-revert': String(entry.seq),
                onclick: async () => {
                    try {
                        await api('POST', '/1/history/' + encodeURIComponent(className) + '/' + encodeURIComponent(objectId) + '/revert', { seq: entry.seq });
                        element.close();
                        notify(t('reverted', objectId, entry.seq));
                        showView();
                    } catch (error) {
                        failure(error);
                    }
                }
            }, t('revert')));
            const element = dialog('history-dialog', t('historyTitle', objectId), h('div', { class: 'table-wrap' }, content), []);
        } catch (error) {
            failure(error);
        }
    }

    async function deletedPanel(className) {
        const result = await api('GET', '/1/deleted/' + encodeURIComponent(className) + '?' + query({ limit: 100 }));
        const entries = result && Array.isArray(result.results) ? result.results : [];
        if (entries.length === 0) return h('p', { class: 'muted', id: 'deleted-empty' }, t('deletedEmpty'));
        return h('div', { class: 'table-wrap', id: 'deleted-table' }, historyTable(entries, entry => h('button', {
            type: 'button', 'data-restore': String(entry.objectId),
            onclick: async () => {
                try {
                    await api('POST', '/1/deleted/' + encodeURIComponent(className) + '/' + encodeURIComponent(String(entry.objectId)) + '/restore', {});
                    notify(t('restored', String(entry.objectId)));
                    showView();
                } catch (error) {
                    failure(error);
                }
            }
        }, t('restore'))));
    }

    async function showSessions(userId) {
        try {
            const result = await api('GET', '/1/users/' + encodeURIComponent(userId) + '/sessions');
            const sessions = result && Array.isArray(result.results) ? result.results : [];
            const content = sessions.length === 0 ? h('p', { class: 'muted' }, t('sessionsEmpty')) : h('table', {},
                h('tbody', {}, sessions.map(session => h('tr', {},
                    h('td', { class: 'mono' }, String(session.objectId)), h('td', {}, String(session.createdAt || '')),
                    h('td', { class: 'mono' }, truncate(JSON.stringify(Object.fromEntries(Object.entries(session)
                        .filter(([name]) => name !== 'objectId' && name !== 'createdAt'))), 120)),
                    h('td', {}, h('button', {
                        type: 'button', class: 'link danger',
                        onclick: async () => {
                            try {
                                await api('DELETE', '/1/users/' + encodeURIComponent(userId) + '/sessions/' + encodeURIComponent(String(session.objectId)));
                                element.close();
                                showSessions(userId);
                            } catch (error) {
                                failure(error);
                            }
                        }
                    }, t('endSession')))))));
            const element = dialog('sessions-dialog', t('sessionsTitle', userId), content, []);
        } catch (error) {
            failure(error);
        }
    }

    // ---- Schema ----------------------------------------------------------------------------------------------

    function schemaPanel(className) {
        const schema = schemaOf(className);
        const fields = fieldsOf(className);
        const save = async (body, done) => {
            try {
                await api('PUT', '/1/schemas/' + encodeURIComponent(className), body);
                notify(t('schemaSaved', className));
                if (done) done();
                showView();
            } catch (error) {
                failure(error);
            }
        };
        const fieldRows = Object.entries(fields).map(([name, field]) => h('tr', { 'data-field': name },
            h('td', { class: 'mono' }, name), h('td', {}, String(field.type)), h('td', {}, field.targetClass ? String(field.targetClass) : ''),
            h('td', {}, h('button', {
                type: 'button', class: 'link danger',
                onclick: () => { if (confirm(t('deleteField', name))) save({ fields: { [name]: { __op: 'Delete' } } }); }
            }, t('delete')))));
        const name = h('input', { id: 'new-field-name', placeholder: t('fieldName'), spellcheck: 'false' });
        const type = h('select', { id: 'new-field-type' }, FIELD_TYPES.map(each => h('option', { value: each }, each)));
        const target = h('input', { id: 'new-field-target', placeholder: t('targetClass'), spellcheck: 'false' });
        const addField = h('form', {
            class: 'row',
            onsubmit: event => {
                event.preventDefault();
                const field = { type: type.value };
                if (type.value === 'Pointer' || type.value === 'Relation') field.targetClass = target.value.trim();
                save({ fields: { [name.value.trim()]: field } });
            }
        }, name, type, target, h('button', { type: 'submit', id: 'add-field' }, t('addField')));
        const indexes = (Array.isArray(schema.indexes) ? schema.indexes : []).map(paths => h('tr', {},
            h('td', { class: 'mono' }, Array.isArray(paths) ? paths.join(', ') : JSON.stringify(paths)),
            h('td', {}, h('button', {
                type: 'button', class: 'link danger',
                onclick: () => save({ indexes: [{ fields: paths, __op: 'Delete' }] })
            }, t('delete')))));
        const indexPaths = h('input', { id: 'new-index', placeholder: t('indexPaths'), size: 40, spellcheck: 'false' });
        const unique = h('input', { type: 'checkbox', id: 'new-index-unique' });
        const addIndex = h('form', {
            class: 'row',
            onsubmit: event => {
                event.preventDefault();
                const paths = indexPaths.value.split(',').map(each => each.trim()).filter(Boolean);
                if (paths.length) save({ indexes: [{ fields: paths, unique: unique.checked }] });
            }
        }, indexPaths, h('label', {}, unique, ' ', t('unique')), h('button', { type: 'submit' }, t('addIndex')));
        const permissions = schema.classLevelPermissions && typeof schema.classLevelPermissions === 'object' ? schema.classLevelPermissions : {};
        const permissionRows = CLASS_OPERATIONS.map(operation => {
            const rule = permissions[operation];
            const restricted = h('input', { type: 'checkbox', class: 'clp-restricted', checked: rule !== undefined });
            const grantees = h('input', { class: 'clp-grantees', size: 40, spellcheck: 'false', value: rule ? Object.keys(rule).join(', ') : '' });
            return { operation, restricted, grantees, row: h('tr', { 'data-operation': operation }, h('td', { class: 'mono' }, operation), h('td', {}, restricted), h('td', {}, grantees)) };
        });
        const savePermissions = h('button', {
            type: 'button', id: 'save-permissions', class: 'primary',
            onclick: () => {
                const rules = {};
                for (const entry of permissionRows) {
                    if (!entry.restricted.checked) continue;
                    rules[entry.operation] = {};
                    for (const grantee of entry.grantees.value.split(',').map(each => each.trim()).filter(Boolean)) rules[entry.operation][grantee] = true;
                }
                save({ classLevelPermissions: Object.keys(rules).length ? rules : null });
            }
        }, t('save'));
        const deleteClass = className.startsWith('_') ? null : h('button', {
            type: 'button', class: 'danger', id: 'delete-class',
            onclick: async () => {
                if (!confirm(t('confirmDeleteClass', className))) return;
                try {
                    await api('DELETE', '/1/schemas/' + encodeURIComponent(className));
                    state.className = null;
                    showView();
                } catch (error) {
                    failure(error);
                }
            }
        }, t('deleteClass'));
        return h('div', {},
            h('section', { class: 'card' }, h('h3', {}, t('fields')), h('table', { id: 'schema-fields' },
                h('thead', {}, h('tr', {}, h('th', {}, t('name')), h('th', {}, t('type')), h('th', {}, t('targetClass')), h('th', {}))),
                h('tbody', {}, fieldRows)), addField),
            h('section', { class: 'card' }, h('h3', {}, t('indexes')), h('table', { id: 'schema-indexes' }, h('tbody', {}, indexes)), addIndex),
            h('section', { class: 'card' }, h('h3', {}, t('permissions')), h('p', { class: 'muted' }, t('permissionsHint')),
                h('table', { id: 'schema-permissions' }, h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', {}, t('restricted')), h('th', {}, t('grantees')))),
                    h('tbody', {}, permissionRows.map(entry => entry.row))), h('p', {}, savePermissions)),
            deleteClass);
    }

    // ---- Realtime monitor ------------------------------------------------------------------------------------

    // A socket.io 0.9 client over a browser WebSocket: handshake over HTTP, then `1::` (connected), the server's
    // `client_send_data` (ready), `client_sub` for the class's table events, `2::` heartbeats answered in kind,
    // and `server_pub` events, each carrying the change as JSON text.
    class RealtimeMonitor {
        constructor(app, className, onEvent, onStatus) {
            this.app = app;
            this.className = className;
            this.onEvent = onEvent;
            this.onStatus = onStatus;
            this.socket = null;
            this.stopped = false;
        }

        async start() {
            this.onStatus('connecting');
            const response = await fetch('/socket.io/1/?t=' + Date.now(), { cache: 'no-store', credentials: 'omit' });
            if (!response.ok) await answer(response);
            const sid = (await response.text()).split(':')[0];
            if (this.stopped) return;
            const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
            this.socket = new WebSocket(scheme + '//' + location.host + '/socket.io/1/websocket/' + encodeURIComponent(sid));
            this.socket.addEventListener('message', event => this.received(String(event.data)));
            this.socket.addEventListener('close', () => { if (!this.stopped) this.onStatus('closed'); });
            this.socket.addEventListener('error', () => this.onStatus('error', 'WebSocket'));
        }

        stop() {
            this.stopped = true;
            if (this.socket) this.socket.close();
        }

        send(text) {
            if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(text);
        }

        received(text) {
            // Several packets may come framed as \ufffd<length>\ufffd<packet>….
            if (text.startsWith('\ufffd')) {
                const parts = text.split('\ufffd');
                for (let index = 2; index < parts.length; index += 2) this.packet(parts[index]);
                return;
            }
            this.packet(text);
        }

        packet(text) {
            const match = /^(\d):([^:]*):([^:]*):?([\s\S]*)$/.exec(text);
            if (!match) return;
            const type = match[1];
            const data = match[4];
            if (type === '2') {
                this.send('2::');
            } else if (type === '7') {
                this.onStatus('error', data);
            } else if (type === '0') {
                this.onStatus('closed');
            } else if (type === '5') {
                let event;
                try {
                    event = JSON.parse(data);
                } catch (error) {
                    return;
                }
                if (event.name === 'client_send_data') {
                    for (const action of ['updateTable', 'deleteTable']) {
                        const argument = JSON.stringify({ appKey: this.app.applicationId, tableName: this.className, objectId: '', action: action });
                        this.send('5:::' + JSON.stringify({ name: 'client_sub', args: [argument] }));
                    }
                    this.onStatus('listening');
                } else if (event.name === 'server_pub' && Array.isArray(event.args)) {
                    try {
                        const message = typeof event.args[0] === 'string' ? JSON.parse(event.args[0]) : event.args[0];
                        if (message && typeof message === 'object') this.onEvent(message);
                    } catch (error) {
                        // Not a change this console can read; ignored.
                    }
                }
            }
        }
    }

    function stopMonitor() {
        if (state.monitor) state.monitor.stop();
        state.monitor = null;
        state.monitorStatus = null;
    }

    async function monitorView() {
        await loadSchemas();
        const classes = state.schemas.map(schema => schema.className);
        const choice = h('select', { id: 'monitor-class' }, classes.map(name => h('option', { value: name, selected: name === state.className }, name)));
        const dot = h('span', { class: 'status-dot' });
        const status = h('span', { id: 'monitor-status' }, t('monitorIdle'));
        const rows = h('tbody', { id: 'monitor-events' });
        const empty = h('p', { class: 'muted', id: 'monitor-empty' }, t('monitorEmpty'));
        function showStatus(kind, detail) {
            state.monitorStatus = kind;
            dot.classList.toggle('on', kind === 'listening');
            status.setAttribute('data-status', kind);
            status.textContent = kind === 'listening' ? t('monitorListening', state.monitor ? state.monitor.className : '')
                : kind === 'connecting' ? t('monitorConnecting')
                    : kind === 'error' ? t('monitorError', detail || '') : kind === 'closed' ? t('monitorClosed') : t('monitorIdle');
        }
        function addRow(entry, fresh) {
            const data = entry.message.data && typeof entry.message.data === 'object' ? entry.message.data : {};
            const row = h('tr', { class: fresh ? 'fresh' : '', 'data-action': String(entry.message.action), 'data-object-id': String(data.objectId || entry.message.objectId || '') },
                h('td', {}, entry.time), h('td', { class: 'mono' }, String(entry.message.action || '')),
                h('td', { class: 'mono' }, String(data.objectId || entry.message.objectId || '')),
                h('td', {}, h('code', {}, truncate(JSON.stringify(data), 400))));
            rows.prepend(row);
            empty.hidden = true;
            if (fresh) setTimeout(() => row.classList.remove('fresh'), 2000);
        }
        for (const entry of state.monitorEvents) addRow(entry, false);
        state.monitorView = { addRow: addRow, showStatus: showStatus };
        if (state.monitorStatus) showStatus(state.monitorStatus);
        empty.hidden = state.monitorEvents.length > 0;
        const start = h('button', {
            type: 'button', class: 'primary', id: 'monitor-start',
            onclick: async () => {
                stopMonitor();
                state.className = choice.value;
                if (!choice.value) return;
                // Through `state.monitorView`, so a view drawn again (another language) keeps receiving.
                const monitor = new RealtimeMonitor(currentApp(), choice.value, message => {
                    const entry = { time: new Date().toLocaleTimeString(), message: message };
                    state.monitorEvents.push(entry);
                    if (state.monitorEvents.length > 200) state.monitorEvents.shift();
                    if (state.monitorView) state.monitorView.addRow(entry, true);
                }, (kind, detail) => { if (state.monitorView) state.monitorView.showStatus(kind, detail); });
                state.monitor = monitor;
                try {
                    await monitor.start();
                } catch (error) {
                    showStatus('error', error.message);
                }
            }
        }, t('monitorStart'));
        const stop = h('button', { type: 'button', id: 'monitor-stop', onclick: () => { stopMonitor(); showStatus('idle'); } }, t('monitorStop'));
        return h('div', {}, h('h1', {}, t('monitorTitle')), h('p', { class: 'muted' }, t('monitorHint')),
            h('div', { class: 'row card' }, choice, start, stop, dot, status),
            h('div', { class: 'table-wrap' }, h('table', { class: 'events' },
                h('thead', {}, h('tr', {}, h('th', {}, t('when')), h('th', {}, t('event')), h('th', {}, 'objectId'), h('th', {}, 'data'))), rows)), empty);
    }

    // ---- Start -----------------------------------------------------------------------------------------------

    loadSession();
    render();
}());
