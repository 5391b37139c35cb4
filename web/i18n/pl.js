// @ts-check

export default {
  'lang.name': 'Polski',
};
