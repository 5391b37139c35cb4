// @ts-check

export default {
  'lang.name': 'Français',
};
